# engine.mk: the sample flow: bytes to samples, the pull loop and its sinks
# (recorder, asynchronous sink) (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/engine/samples.c src/engine/samples.h \
	src/engine/engine.c src/engine/engine.h \
	src/engine/asyncsink.c src/engine/asyncsink.h \
	src/engine/recorder.c src/engine/recorder.h
