//! Time management: how long the next move may think.
