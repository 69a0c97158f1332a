//! CodinGame's opening book: replies the bot's games against itself chose where its
//! search, short or long, prefers another move. Each entry is a line from the empty board
//! and the reply to it; a game matches an entry through any of the board's eight
//! symmetries. How an entry was chosen, with its games, is in docs/uttt.md ("The reply to
//! the centre", stop 83); nothing in it comes from an opponent's games.

use super::symmetry::{inverse, move_image};
use super::Move;

/// A cell `(x, y)` of the 9×9 grid.
type Cell = (u8, u8);

/// An entry: the moves from the empty board, and the reply.
type Entry = (&'static [Cell], Cell);

const BOOK: &[Entry] = &[
    // The centre opening: an edge of the centre board. Against itself from there, the
    // bot moving second scored 0.445 after an edge and 0.010 after a corner, the reply
    // its search picks (200 games).
    (&[(4, 4)], (3, 4)),
];

fn grid_move((x, y): Cell) -> Move {
    Move::from_xy(x, y).expect("the book's moves are on the board")
}

/// The book's reply to the game `line` (its moves from the empty board), if the book has
/// one.
pub fn reply(line: &[Move]) -> Option<Move> {
    reply_in(BOOK, line)
}

/// The reply of the first entry of `book` whose line is an image of `line` under one of
/// the eight symmetries, mapped back to `line`'s side.
fn reply_in(book: &[Entry], line: &[Move]) -> Option<Move> {
    book.iter().find_map(|&(entry, entry_reply)| {
        let image_of_entry = |s: usize| {
            entry.len() == line.len()
                && line
                    .iter()
                    .zip(entry)
                    .all(|(&mv, &cell)| move_image(s, mv) == grid_move(cell))
        };
        (0..8)
            .find(|&s| image_of_entry(s))
            .map(|s| move_image(inverse(s), grid_move(entry_reply)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uttt::{Board, EndRule};

    #[test]
    fn the_centre_opening_is_answered_by_an_edge_of_the_centre_board_in_every_image() {
        let centre = Move::from_xy(4, 4).unwrap();
        let reply = reply(&[centre]).expect("in the book");
        assert_eq!(reply, Move::from_xy(3, 4).unwrap());
        // The centre is its own image under every symmetry; the reply is an edge, legal.
        let mut board = Board::with_end_rule(EndRule::MoreBoards);
        board.play_move(centre);
        assert!(board.is_legal(reply));
        assert_eq!(
            (reply.board(), reply.cell() % 2),
            (4, 1),
            "an edge of the centre"
        );
    }

    #[test]
    fn a_line_matches_through_its_images_and_the_reply_follows_the_image() {
        // A two-ply entry (the centre, then a corner of the centre board) and its reply
        // (the far corner of the board it sends the game to).
        let book: &[Entry] = &[(&[(4, 4), (3, 3)], (0, 0))];
        let line = [Move::from_xy(4, 4).unwrap(), Move::from_xy(3, 3).unwrap()];
        let answer = Move::from_xy(0, 0).unwrap();
        let mut replies = std::collections::HashSet::new();
        for s in 0..8 {
            let image: Vec<Move> = line.iter().map(|&mv| move_image(s, mv)).collect();
            assert_eq!(reply_in(book, &image), Some(move_image(s, answer)), "{s}");
            replies.insert(move_image(s, answer));
        }
        // The line's four corners give the reply's four corners.
        assert_eq!(replies.len(), 4);
        // Another corner's line is an image too; an edge's is not.
        let edge = [Move::from_xy(4, 4).unwrap(), Move::from_xy(3, 4).unwrap()];
        assert_eq!(reply_in(book, &edge), None);
    }

    #[test]
    fn other_lines_are_not_in_the_book() {
        assert_eq!(reply(&[]), None);
        assert_eq!(reply(&[Move::from_xy(0, 0).unwrap()]), None);
        let centre = Move::from_xy(4, 4).unwrap();
        assert_eq!(reply(&[centre, Move::from_xy(3, 4).unwrap()]), None);
    }
}
