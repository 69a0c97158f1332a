//! The bot glue: engine commands in, searches, answers out.
