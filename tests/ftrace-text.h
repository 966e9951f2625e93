/* SPDX-License-Identifier: MIT */
/*
 * ftrace-text.h - the text of tracefs the tests' hand-made recordings
 * carry (tests/unit/test-source.c, test-scrub.c, tests/tracedat/
 * tdat-synth.c): the common fields every event format begins with and
 * the header_page of a 64-bit and a 32-bit kernel, as the kernel prints
 * them.
 */
#ifndef TESTS_FTRACE_TEXT_H
#define TESTS_FTRACE_TEXT_H

/* An event format's first fields and the blank line after them. */
#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* events/header_page: the commit word is a long */
#define HEADER_PAGE_64 \
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n" \
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n" \
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n" \
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n"

#define HEADER_PAGE_32 \
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n" \
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n" \
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n"

#endif
