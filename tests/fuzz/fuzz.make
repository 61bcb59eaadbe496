# SPDX-License-Identifier: GPL-3.0-or-later
# fuzz.make - the rules of `make fuzz` (GNU make; run from the build
# directory by the `fuzz` rule of tests/fuzz/fuzz.mk, not by hand).
#
# It reads the configured Makefile for the library's sources, preprocessor
# flags and libraries, and builds with $(FUZZ_CC) (clang) into fuzz/: every
# library source with coverage instrumentation and ASan/UBSan, one archive,
# and fuzz/fuzz_NAME for each NAME of FUZZ_TARGETS.  The normal build's
# objects are not touched.
include Makefile

FUZZ_DIR = fuzz
# UBSan findings abort (as ASan's do), so libFuzzer keeps the input.
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN)
FUZZ_CPPFLAGS = $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(GSL_CFLAGS) $(LIBUSB_CFLAGS) $(PTHREAD_CFLAGS)
FUZZ_LIBS = $(filter-out src/librngaudit.a,$(LIBS_ALL))
FUZZ_LIB_OBJS = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter %.c,$(src_librngaudit_a_SOURCES)))
FUZZ_BINS = $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))

.PHONY: fuzz-all
fuzz-all: $(FUZZ_BINS)
	@echo "make fuzz: built $(FUZZ_BINS) (HACKING.md, Fuzzing, says how to run them)"

$(FUZZ_DIR)/obj/%.o: $(srcdir)/%.c
	@mkdir -p $(@D)
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/librngaudit.a: $(FUZZ_LIB_OBJS)
	$(AM_V_AR)rm -f $@ && $(AR) $(ARFLAGS) $@ $^

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_DIR)/librngaudit.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

# The targets' objects are intermediate files: keep them (no relink each time).
.SECONDARY: $(patsubst %,$(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o,$(FUZZ_TARGETS))

-include $(FUZZ_LIB_OBJS:.o=.d) $(patsubst %,$(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.d,$(FUZZ_TARGETS))
