# tests/accuracy/: live accuracy tests of ioreport against known truths
