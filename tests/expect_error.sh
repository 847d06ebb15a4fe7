#!/usr/bin/env bash
# expect_error.sh PATTERN COMMAND...: passes when COMMAND exits non-zero (not by a signal) and its
# output matches the extended regular expression PATTERN.
pattern=$1; shift
out=$("$@" 2>&1); rc=$?
echo "$out"
if [ $rc -eq 0 ]; then echo "expect_error: the command succeeded"; exit 1; fi
if [ $rc -gt 128 ]; then echo "expect_error: the command died by signal $((rc - 128))"; exit 1; fi
echo "$out" | tr '\n' ' ' | grep -Eq -- "$pattern" || { echo "expect_error: no match for: $pattern"; exit 1; }
echo "expect_error: exit $rc with the expected message"
