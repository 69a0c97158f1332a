//! The UTTT position on bitboards, its move type and the rules of the official engine.

use std::fmt::Write as _;

use super::tables::{count9, is_line, winning_cells, ALL9};
use crate::game::{Outcome, Player};

/// A cell of the 9x9 field as `board * 9 + cell`, where `board` is the micro board
/// (`(row / 3) * 3 + column / 3`) and `cell` the cell inside it (`(row % 3) * 3 + column % 3`).
///
/// Board-major indexing makes "the cell sends the opponent to board `cell`" a plain
/// division, and keeps each micro board's nine cells in one 9-bit mask.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(pub u8);

impl Move {
    /// The move at engine coordinates (`column`, `row`), both in `0..9`; `None` outside.
    pub fn from_xy(column: u8, row: u8) -> Option<Move> {
        if column >= 9 || row >= 9 {
            return None;
        }
        let board = (row / 3) * 3 + column / 3;
        let cell = (row % 3) * 3 + column % 3;
        Some(Move(board * 9 + cell))
    }

    /// The move at (`row`, `column`) of the whole grid, CodinGame's order; `None` outside
    /// `0..9` (a negative number included).
    pub fn from_row_col(row: i32, column: i32) -> Option<Move> {
        Move::from_xy(u8::try_from(column).ok()?, u8::try_from(row).ok()?)
    }

    /// The move at `index` of the engine's row-major field (`row * 9 + column`);
    /// `None` outside `0..81`.
    pub fn from_field_index(index: usize) -> Option<Move> {
        if index >= 81 {
            return None;
        }
        Move::from_xy((index % 9) as u8, (index / 9) as u8)
    }

    /// The move made of micro `board` and `cell` inside it (both in `0..9`).
    #[inline(always)]
    pub(crate) fn from_board_cell(board: u8, cell: u8) -> Move {
        debug_assert!(board < 9 && cell < 9);
        Move(board * 9 + cell)
    }

    /// Engine coordinates (column, row), as in `place_move X Y`.
    pub fn xy(self) -> (u8, u8) {
        let (board, cell) = (self.board(), self.cell());
        ((board % 3) * 3 + cell % 3, (board / 3) * 3 + cell / 3)
    }

    /// The micro board (`0..9`, row-major on the macro board) this move is played in.
    #[inline(always)]
    pub fn board(self) -> u8 {
        self.0 / 9
    }

    /// The cell inside its micro board (`0..9`), which is also the board it sends the
    /// opponent to.
    #[inline(always)]
    pub fn cell(self) -> u8 {
        self.0 % 9
    }
}

/// `target` value meaning "any open micro board".
pub(crate) const ANY: u8 = 9;

/// How a game ends when every micro board is closed and nobody has a line of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum EndRule {
    /// A draw (TheAIGames, riddles.io).
    #[default]
    Draw,
    /// The player who won more micro boards wins; equal counts draw (CodinGame's
    /// referee, `CodinGame/game-tictactoe`).
    MoreBoards,
}

impl std::str::FromStr for EndRule {
    type Err = String;

    /// `draw` (or `theaigames`) and `boards` (or `codingame`), as the bot's and the arena's
    /// `--end-rule` take them.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "draw" | "theaigames" => Ok(EndRule::Draw),
            "boards" | "codingame" => Ok(EndRule::MoreBoards),
            other => Err(format!("--end-rule: draw or boards, not {other:?}")),
        }
    }
}

impl EndRule {
    /// The result of a finished game without a line, from the won-board masks.
    #[inline]
    pub(crate) fn lineless_outcome(self, won: [u16; 2]) -> Outcome {
        let (first, second) = (count9(won[0]), count9(won[1]));
        match self {
            EndRule::MoreBoards if first > second => Outcome::Win(0),
            EndRule::MoreBoards if second > first => Outcome::Win(1),
            _ => Outcome::Draw,
        }
    }
}

/// An Ultimate Tic-Tac-Toe position.
///
/// The won and drawn masks are derived from `marks` but kept so the rules never recount
/// them. Equality is canonical because `target` is normalised by [`Board::canonical_target`]:
/// a position reached by [`play`](crate::search::Game::play) equals the same position
/// rebuilt from the engine's field and macroboard, which lets the bot find its old tree.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// `marks[player][board]`: the 9-bit mask of `player`'s marks in micro `board`.
    pub(crate) marks: [[u16; 9]; 2],
    /// `won[player]`: 9-bit mask of the micro boards `player` has a line in.
    pub(crate) won: [u16; 2],
    /// Micro boards that are full without a line: closed, and counting for nobody.
    pub(crate) drawn: u16,
    /// The only micro board the player to move may play in, or [`ANY`].
    pub(crate) target: u8,
    /// The player to move (0 = the first mover).
    pub(crate) turn: Player,
    /// How a lineless game ends. A field rather than a type parameter or an argument of
    /// `outcome`, on purpose: it is one byte of a 46-byte copy; the game-agnostic search
    /// asks `Game::outcome()` with no settings; the tools mix both rules in one stream
    /// (self-play `--rule both`, training, the gate), which a `Board<Rule>` would turn
    /// into an enum of two board types; and the value network reads it as an input, so
    /// it belongs to what a position is, as the player to move does.
    pub(crate) end_rule: EndRule,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// The empty board, player 0 (the first mover) to move, any board playable.
    pub fn new() -> Board {
        Board {
            marks: [[0; 9]; 2],
            won: [0; 2],
            drawn: 0,
            target: ANY,
            turn: 0,
            end_rule: EndRule::Draw,
        }
    }

    /// The empty board under `rule`.
    pub fn with_end_rule(rule: EndRule) -> Board {
        Board {
            end_rule: rule,
            ..Board::new()
        }
    }

    /// This position under `rule`.
    pub fn under(self, rule: EndRule) -> Board {
        Board {
            end_rule: rule,
            ..self
        }
    }

    /// How a lineless game ends on this board.
    pub fn end_rule(&self) -> EndRule {
        self.end_rule
    }

    /// Micro boards still open: neither won by anyone nor full.
    #[inline(always)]
    pub(crate) fn open_boards(&self) -> u16 {
        !(self.won[0] | self.won[1] | self.drawn) & ALL9
    }

    /// The empty cells of micro `board` as a 9-bit mask.
    #[inline(always)]
    pub(crate) fn empty_cells(&self, board: usize) -> u16 {
        !(self.marks[0][board] | self.marks[1][board]) & ALL9
    }

    /// Whether the game has ended: a macro line, or no open micro board left.
    #[inline(always)]
    fn is_over(&self) -> bool {
        is_line(self.won[0]) || is_line(self.won[1]) || self.open_boards() == 0
    }

    /// Micro boards the player to move may play in (0 once the game is over).
    #[inline]
    pub fn playable_boards(&self) -> u16 {
        if self.is_over() {
            0
        } else if self.target == ANY {
            self.open_boards()
        } else {
            1 << self.target
        }
    }

    /// The canonical target after a move into cell `sent_to`: "any" when the game is
    /// over, when that board is closed, or when it is the only open board (then "any"
    /// and "that board" allow the same moves, and the engine's macroboard cannot tell
    /// them apart).
    #[inline(always)]
    pub(crate) fn canonical_target(&self, sent_to: u8) -> u8 {
        let open = self.open_boards();
        let game_over = is_line(self.won[0]) || is_line(self.won[1]) || open == 0;
        // `open & (open - 1) == 0`: exactly one open board (`open` is not 0 here).
        if game_over || open >> sent_to & 1 == 0 || open & (open - 1) == 0 {
            ANY
        } else {
            sent_to
        }
    }

    /// The player to move.
    #[inline]
    pub fn turn(&self) -> Player {
        self.turn
    }

    /// The micro board the player to move is sent to, `None` for "any open board"
    /// (also `None` once the game is over).
    pub fn target(&self) -> Option<u8> {
        (self.target != ANY).then_some(self.target)
    }

    /// Micro boards won by `player` (9-bit mask, row-major).
    pub fn won_boards(&self, player: Player) -> u16 {
        self.won[player as usize & 1]
    }

    /// Whether `player` has three won boards in a line.
    pub fn has_line(&self, player: Player) -> bool {
        is_line(self.won[player as usize & 1])
    }

    /// Micro boards that are full without a line.
    pub fn drawn_boards(&self) -> u16 {
        self.drawn
    }

    /// Who owns the cell of `mv`: `Some(player)` or `None` if empty.
    pub fn owner(&self, mv: Move) -> Option<Player> {
        let (board, bit) = (mv.board() as usize, 1u16 << mv.cell());
        if mv.0 >= 81 {
            None
        } else if self.marks[0][board] & bit != 0 {
            Some(0)
        } else if self.marks[1][board] & bit != 0 {
            Some(1)
        } else {
            None
        }
    }

    /// Whether `player` has an empty cell in micro `board` that completes a line of its
    /// marks there (whether the board is still playable is the caller's question).
    #[inline(always)]
    pub(crate) fn can_win_board(&self, player: usize, board: usize) -> bool {
        winning_cells(self.marks[player & 1][board]) & self.empty_cells(board) != 0
    }

    /// Whether the player to move can win the game with its next move: an empty cell
    /// that completes a line in a playable micro board whose win completes a line of
    /// boards. Such a position is won for the player to move, whatever else it holds.
    #[inline]
    pub fn mover_wins_at_once(&self) -> bool {
        let me = self.turn as usize & 1;
        let mut boards = winning_cells(self.won[me]) & self.playable_boards();
        while boards != 0 {
            let board = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            if self.can_win_board(me, board) {
                return true;
            }
        }
        false
    }

    /// Moves played so far (the number of marks on the field).
    pub fn ply(&self) -> u32 {
        self.marks.iter().flatten().map(|&m| count9(m)).sum()
    }

    /// Whether `mv` is legal for the player to move: on an empty cell of a playable board.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.0 >= 81 {
            return false;
        }
        let board = mv.board() as usize;
        self.playable_boards() >> board & 1 == 1 && self.empty_cells(board) >> mv.cell() & 1 == 1
    }

    /// The number of legal moves (0 once the game is over).
    pub fn legal_move_count(&self) -> u32 {
        let mut boards = self.playable_boards();
        let mut count = 0;
        while boards != 0 {
            let board = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            count += count9(self.empty_cells(board));
        }
        count
    }

    /// The game result, `None` while it goes on. Three won boards in a line win; no open
    /// board left without such a line ends by the [`EndRule`] (a draw on TheAIGames).
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        if is_line(self.won[0]) {
            Some(Outcome::Win(0))
        } else if is_line(self.won[1]) {
            Some(Outcome::Win(1))
        } else if self.open_boards() == 0 {
            Some(self.end_rule.lineless_outcome(self.won))
        } else {
            None
        }
    }

    /// Calls `visit` with each legal move, boards and cells in increasing order.
    #[inline]
    pub(crate) fn for_each_legal_move(&self, mut visit: impl FnMut(Move)) {
        let mut boards = self.playable_boards();
        while boards != 0 {
            let board = boards.trailing_zeros() as u8;
            boards &= boards - 1;
            let mut cells = self.empty_cells(board as usize);
            while cells != 0 {
                let cell = cells.trailing_zeros() as u8;
                cells &= cells - 1;
                visit(Move::from_board_cell(board, cell));
            }
        }
    }

    /// Plays `mv` for the player to move. The move must be legal (checked in debug builds).
    #[inline]
    pub fn play_move(&mut self, mv: Move) {
        debug_assert!(
            self.is_legal(mv),
            "illegal move {mv:?} in\n{}",
            self.render()
        );
        let (board, cell) = (mv.board() as usize, mv.cell());
        let player = self.turn as usize;
        let mine = self.marks[player][board] | 1 << cell;
        self.marks[player][board] = mine;
        if is_line(mine) {
            self.won[player] |= 1 << board;
        } else if self.empty_cells(board) == 0 {
            self.drawn |= 1 << board;
        }
        self.target = self.canonical_target(cell);
        self.turn ^= 1;
    }

    /// A 9x9 picture of the field for humans (`arena --watch`): `X` is player 0, `O`
    /// player 1, `.` an empty cell, `*` an empty cell the player to move may play, with
    /// micro-board separators and a status line.
    pub fn render(&self) -> String {
        let playable = self.playable_boards();
        let mut out = String::with_capacity(400);
        for row in 0..9u8 {
            if row == 3 || row == 6 {
                out.push_str("------+-------+------\n");
            }
            for column in 0..9u8 {
                if column == 3 || column == 6 {
                    out.push_str("| ");
                }
                let mv = Move::from_xy(column, row).expect("in range");
                out.push(match self.owner(mv) {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None if playable >> mv.board() & 1 == 1 => '*',
                    None => '.',
                });
                out.push(if column == 8 { '\n' } else { ' ' });
            }
        }
        let macro_board: String = (0..9)
            .map(|b| {
                if self.won[0] >> b & 1 == 1 {
                    'X'
                } else if self.won[1] >> b & 1 == 1 {
                    'O'
                } else if self.drawn >> b & 1 == 1 {
                    '='
                } else {
                    '.'
                }
            })
            .collect();
        let _ = write!(
            out,
            "macro {} {} {}  ply {}  ",
            &macro_board[0..3],
            &macro_board[3..6],
            &macro_board[6..9],
            self.ply()
        );
        let _ = match self.outcome() {
            Some(Outcome::Win(p)) => writeln!(out, "{} wins", if p == 0 { 'X' } else { 'O' }),
            Some(Outcome::Draw) => writeln!(out, "draw"),
            None => writeln!(out, "{} to move", if self.turn == 0 { 'X' } else { 'O' }),
        };
        out
    }
}

/// Counts the leaves of the legal move tree `depth` plies deep (move-generator check).
/// As in the reference generator, a finished position counts 1 at any depth, and so
/// does depth 0.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 || board.is_over() {
        return 1;
    }
    if depth == 1 {
        return board.legal_move_count() as u64;
    }
    let mut total = 0;
    board.for_each_legal_move(|mv| {
        let mut child = *board;
        child.play_move(mv);
        total += perft(&child, depth - 1);
    });
    total
}

/// With `wins_at_once`, a position whose player to move can win the game with one move
/// ([`Board::mover_wins_at_once`]) is won for that player: the search's solver then
/// proves the move that allowed it lost at its first visit, and a new child of that kind
/// starts as the loss it is, instead of waiting for play-outs and an expansion to find
/// the reply.
#[inline(always)]
pub(crate) fn certain_win(board: &Board, wins_at_once: bool) -> Option<Outcome> {
    (wins_at_once && board.mover_wins_at_once()).then(|| Outcome::Win(board.turn()))
}
