//! Ultimate Tic-Tac-Toe rules on bitboards.
