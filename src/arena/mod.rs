//! The local engine: referees UTTT and Light Riders games between bot processes.
