#!/bin/sh
# Test bot that exits at once.
exit 3
