# UDPCP for Linux: top-level build.  Nothing here loads a module into this
# machine's kernel; tests run in a QEMU guest (tests/).

# Nothing below asks the machine anything when the Makefile is read: on a
# fresh machine the kernel headers and libnl arrive with `make deps`, which
# every target that needs them runs first (also under -j).  The kernel
# release is found once, by scripts/kver.sh, when the first recipe that
# needs it runs (KVER= overrides it, KDIR= the build tree); libnl's flags
# by pkg-config when udpcpctl is compiled.
UDPCP_CACHE	?= /var/cache/udpcp
PREFIX		?= /usr/local
export UDPCP_CACHE
KVER_FOUND	= $(eval KVER_FOUND := $$(or $$(KVER),$$(shell scripts/kver.sh)))$(or $(KVER_FOUND),\
		  $(error no kernel headers found: make deps installs them))
KBUILD		= $(MAKE) -C $(or $(KDIR),/lib/modules/$(KVER_FOUND)/build) \
		  M=$(CURDIR)/module
WITH_KVER	= KVER=$(KVER_FOUND)

CC		?= gcc
USER_CFLAGS	:= -O2 -g -Wall -Wextra -Werror -I$(CURDIR)/uapi
NL_CFLAGS	= $$(pkg-config --cflags libnl-genl-3.0)
NL_LIBS		= $$(pkg-config --libs libnl-genl-3.0)

PROGS		:= udpcpctl/udpcpctl
TEST_PROGS	:= $(patsubst %.c,%,$(wildcard tests/progs/*.c))
DOC_PROGS	:= $(patsubst %.c,%,$(wildcard Documentation/examples/*.c))
BENCH_PROGS	:= bench/udpcp-bench

.PHONY: all module progs deps check check-style demo check-debug ci bench \
	install deb patches clean

all: module progs

deps:
	@scripts/deps.sh

module: | deps
	+@$(KBUILD) modules

progs: $(PROGS) $(TEST_PROGS) $(DOC_PROGS) $(BENCH_PROGS)

# Order-only: deps runs before any of them, even under make -j.
$(PROGS) $(TEST_PROGS) $(DOC_PROGS) $(BENCH_PROGS): | deps

udpcpctl/udpcpctl: $(wildcard udpcpctl/*.c udpcpctl/*.h) uapi/linux/udpcp.h uapi/linux/udpcp_nl.h
	$(CC) $(USER_CFLAGS) $(NL_CFLAGS) -o $@ $(filter %.c,$^) $(NL_LIBS)

tests/progs/%: tests/progs/%.c $(wildcard tests/progs/*.h) uapi/linux/udpcp.h uapi/linux/udpcp_nl.h
	$(CC) $(USER_CFLAGS) -o $@ $< -lm

Documentation/examples/%: Documentation/examples/%.c uapi/linux/udpcp.h uapi/linux/udpcp_nl.h
	$(CC) $(USER_CFLAGS) -o $@ $<

bench/udpcp-bench: bench/udpcp-bench.c bench/uudpcp.c bench/uudpcp.h uapi/linux/udpcp.h uapi/linux/udpcp_nl.h
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.c,$^) -lm

# Style gates: checkpatch --strict, W=1 and sparse must report nothing.
check-style: deps
	@$(WITH_KVER) scripts/check-style.sh

check: deps check-style all deb
	@$(WITH_KVER) tests/check.sh $(TESTS)

demo: deps all
	@$(WITH_KVER) tests/demo.sh

check-debug: deps
	@tests/debug/check-debug.sh $(TESTS)

# What CI runs: check and check-debug side by side, one total.
ci:
	@scripts/ci.sh

# bench/run.sh boots one guest and runs every figure (BENCH_SMOKE=1: briefly).
bench: deps all
	@$(WITH_KVER) bench/run.sh

# The upstream form: a git format-patch series against the newest installed
# linux-source-6.12, into build/patches (PATCHES_OUT= elsewhere);
# tests/host/patches.sh applies, builds and checkpatches it in make check.
patches: deps
	@scripts/patches.sh

install: all
	@DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" scripts/install.sh

deb: all
	@scripts/deb.sh

clean:
	-+@kver=$$(scripts/kver.sh 2>/dev/null) && \
		$(MAKE) -C $(or $(KDIR),/lib/modules/$$kver/build) M=$(CURDIR)/module clean
	rm -f $(PROGS) $(TEST_PROGS) $(DOC_PROGS) $(BENCH_PROGS)
	rm -rf build
