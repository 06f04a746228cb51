# UDPCP for Linux: top-level build.  Nothing here loads a module into this
# machine's kernel; tests run in a QEMU guest (tests/).

KVER		?= $(shell scripts/kver.sh 2>/dev/null)
KDIR		?= /lib/modules/$(KVER)/build
UDPCP_CACHE	?= /var/cache/udpcp
PREFIX		?= /usr/local
export KVER KDIR UDPCP_CACHE

CC		?= gcc
USER_CFLAGS	:= -O2 -g -Wall -Wextra -Werror -I$(CURDIR)/uapi
NL_CFLAGS	:= $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS		:= $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)

PROGS		:= udpcpctl/udpcpctl
TEST_PROGS	:= $(patsubst %.c,%,$(wildcard tests/progs/*.c))
DOC_PROGS	:= $(patsubst %.c,%,$(wildcard Documentation/examples/*.c))
BENCH_PROGS	:= bench/udpcp-bench

.PHONY: all module progs deps check check-style demo check-debug ci bench \
	install clean

all: module progs

deps:
	@scripts/deps.sh

module:
	@test -n "$(KVER)" || { echo "no kernel headers: run make deps" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

progs: $(PROGS) $(TEST_PROGS) $(DOC_PROGS) $(BENCH_PROGS)

udpcpctl/udpcpctl: $(wildcard udpcpctl/*.c udpcpctl/*.h) uapi/linux/udpcp.h
	$(CC) $(USER_CFLAGS) $(NL_CFLAGS) -o $@ $(filter %.c,$^) $(NL_LIBS)

tests/progs/%: tests/progs/%.c $(wildcard tests/progs/*.h) uapi/linux/udpcp.h
	$(CC) $(USER_CFLAGS) -o $@ $< -lm

Documentation/examples/%: Documentation/examples/%.c uapi/linux/udpcp.h
	$(CC) $(USER_CFLAGS) -o $@ $<

bench/udpcp-bench: bench/udpcp-bench.c bench/uudpcp.c bench/uudpcp.h uapi/linux/udpcp.h
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.c,$^) -lm

# Style gates: checkpatch --strict, W=1 and sparse must report nothing.
check-style: deps
	@scripts/check-style.sh

check: deps check-style all
	@tests/check.sh $(TESTS)

demo: deps all
	@tests/demo.sh

check-debug: deps
	@tests/debug/check-debug.sh $(TESTS)

# What CI runs: check and check-debug side by side, one total.
ci:
	@scripts/ci.sh

# bench/run.sh boots one guest and runs every figure (BENCH_SMOKE=1: briefly).
bench: deps all
	@bench/run.sh

install: progs
	install -D -m 0755 udpcpctl/udpcpctl $(DESTDIR)$(PREFIX)/sbin/udpcpctl
	install -D -m 0644 udpcpctl/udpcpctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/udpcpctl.8
	install -D -m 0644 udpcpctl/udpcpctl.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/udpcpctl

clean:
	-test -n "$(KVER)" && $(MAKE) -C $(KDIR) M=$(CURDIR)/module clean
	rm -f $(PROGS) $(TEST_PROGS) $(DOC_PROGS) $(BENCH_PROGS)
	rm -rf build
