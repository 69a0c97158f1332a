//! Light Riders (Tron) rules on bitboards and the space evaluation.
