# analyze/replay/: the state machines
analyze_libioreport_a_SOURCES += \
	analyze/replay/block.h analyze/replay/block.c \
	analyze/replay/syscall.h analyze/replay/syscall.c \
	analyze/replay/fdtable.h analyze/replay/fdtable.c \
	analyze/replay/proctable.h analyze/replay/proctable.c \
	analyze/replay/window.h analyze/replay/window.c \
	analyze/replay/uring.h analyze/replay/uring.c \
	analyze/replay/aio.h analyze/replay/aio.c \
	analyze/replay/bio-owner.h analyze/replay/bio-owner-int.h \
	analyze/replay/bio-owner.c analyze/replay/inode.c \
	analyze/replay/stack.h analyze/replay/stack.c
