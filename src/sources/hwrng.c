/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hwrng.c - /dev/hwrng, /dev/chaoskey0 or any character device that streams
 * random bytes: blocking reads, the kernel's selected hw_random driver
 * (sysfs rng_current) recorded, one-line errors for the usual failures. */
#include "config.h"

#include "sources/backend.h"
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HWRNG_DEFAULT_DEVICE "/dev/hwrng"
#define HWRNG_SYSFS_CURRENT "/sys/class/misc/hw_random/rng_current"

struct hwrng {
	int fd;
};

/* Reads the first line of a small sysfs file into buf ("" if absent). */
static void read_sysfs_line(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");
	buf[0] = '\0';
	if (!fp)
		return;
	if (fgets(buf, (int)len, fp))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

/* What to do about an errno from open or read, naming dev.  EACCES is the
 * node's mode and group (the udev rule, 60-rngaudit.rules); EPERM on a
 * device node the caller may read is the device cgroup refusing it, as
 * systemd's DevicePolicy=closed does for devices not in DeviceAllow=
 * (security/device_cgroup.c and kernel/bpf/cgroup.c return -EPERM). */
static const char *hwrng_hint(int errnum, const char *dev, char *buf, size_t len)
{
	switch (errnum) {
	case ENOENT: return " (no hardware RNG driver loaded, or the device is unplugged)";
	case EACCES:
		return " (needs read permission: run as root, or give a group read access with a "
		       "udev rule such as 60-rngaudit.rules' for the rngaudit group)";
	case EPERM:
		snprintf(buf, len, " (needs read access through the device cgroup: a systemd unit "
			 "needs DeviceAllow=%s r)", dev);
		return buf;
	case ENODEV: return " (no hardware RNG is selected: the device was unplugged?)";
	default: return "";
	}
}

/* A ChaosKey behind /dev/chaoskeyN or the kernel hwrng gives its whitened
 * (cooked) output; its raw noise is the chaoskey source.  Said in detail. */
static void hwrng_label_chaoskey(const char *dev, char *detail, size_t len)
{
	if (strstr(dev, "chaoskey") || strstr(detail, "chaoskey"))
		snprintf(detail, len, "ChaosKey whitened output; its raw noise is the chaoskey source");
}

static int hwrng_open(struct source *src, struct spec *sp, struct err *e)
{
	const char *dev = spec_get(sp, "device");
	struct hwrng *h;
	struct stat st;
	int fd, rc;

	rc = spec_check_unused(sp, e);
	if (rc)
		return rc;
	if (!dev || !*dev)
		dev = HWRNG_DEFAULT_DEVICE;
	/* Type first, so that a regular file is refused before it is opened
	 * and a FIFO gets input_open's bounded wait. */
	if (stat(dev, &st) == 0 && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		return err_set(e, ERR_USAGE, "hwrng: %s: not a character device (use file:PATH for files)", dev);
	/* hw_random refuses O_RDWR (EINVAL): read-only.  O_NONBLOCK until
	 * input_wait has seen data: a FIFO with no writer must not hang us. */
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int saved = errno;
		char hint[PATH_MAX + 96];
		return err_set(e, err_code_from_errno(saved), "hwrng: %s: %s%s", dev,
			       strerror(saved), hwrng_hint(saved, dev, hint, sizeof hint));
	}
	if ((rc = input_wait(fd, dev, e)) != 0) {
		close(fd);
		return rc;
	}
	h = calloc(1, sizeof *h);
	if (!h) {
		close(fd);
		return err_set(e, ERR_NOMEM, "hwrng: out of memory");
	}
	h->fd = fd;
	src->priv = h;
	snprintf(src->info.spec, sizeof src->info.spec, "hwrng:device=%s", dev);
	snprintf(src->info.device, sizeof src->info.device, "%s", dev);
	if (strcmp(dev, HWRNG_DEFAULT_DEVICE) == 0)
		read_sysfs_line(HWRNG_SYSFS_CURRENT, src->info.detail, sizeof src->info.detail);
	hwrng_label_chaoskey(dev, src->info.detail, sizeof src->info.detail);
	src->info.word_bits = 8;
	src->info.kind = SOURCE_RAW;
	/* Slow devices (virtio-rng ~10 KB/s): small reads keep progress and
	 * Ctrl-C responsive; the kernel delivers <= 64 bytes per driver call. */
	src->info.block_hint = 4096;
	return 0;
}

static ssize_t hwrng_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	struct hwrng *h = src->priv;
	ssize_t got;

	src->counters.calls++;
	got = read(h->fd, buf, len);
	if (got < 0) {
		int saved = errno;
		if (saved == EINTR) {
			src->counters.retries++;
			return ERR_INTERRUPTED;
		}
		if (saved == EAGAIN) {   /* chaoskey: 1 s USB timeout with nothing read */
			src->counters.retries++;
			return ERR_INTERRUPTED;
		}
		char hint[PATH_MAX + 96];
		return err_set(e, err_code_from_errno(saved) == ERR_UNAVAILABLE ? ERR_SOURCE
			       : err_code_from_errno(saved), "hwrng: %s: %s%s",
			       src->info.device, strerror(saved),
			       hwrng_hint(saved, src->info.device, hint, sizeof hint));
	}
	if (got == 0)
		return err_set(e, ERR_SOURCE, "hwrng: %s: device returned end of file", src->info.device);
	if ((size_t)got < len)
		src->counters.short_reads++;
	src->counters.bytes += (uint64_t)got;
	src->counters.words += (uint64_t)got;
	return got;
}

static void hwrng_close(struct source *src)
{
	struct hwrng *h = src->priv;
	if (h) {
		close(h->fd);
		free(h);
	}
}

static int hwrng_probe(struct source_probe *p)
{
	int fd;
	p->word_bits = 8;
	p->kind = SOURCE_RAW;
	snprintf(p->device, sizeof p->device, "%s", HWRNG_DEFAULT_DEVICE);
	read_sysfs_line(HWRNG_SYSFS_CURRENT, p->detail, sizeof p->detail);
	hwrng_label_chaoskey(HWRNG_DEFAULT_DEVICE, p->detail, sizeof p->detail);
	fd = open(HWRNG_DEFAULT_DEVICE, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int saved = errno;
		p->available = 0;
		snprintf(p->why, sizeof p->why, "%s", saved == ENOENT ? "no device (no hardware RNG driver loaded)"
			 : saved == EACCES ? "no read permission on /dev/hwrng (udev rule, 60-rngaudit.rules)"
			 : saved == EPERM ? "the device cgroup denies /dev/hwrng (a unit's DeviceAllow=)"
			 : saved == ENODEV ? "no hardware RNG selected" : strerror(saved));
		return 0;
	}
	close(fd);
	p->available = 1;
	return 0;
}

const struct source_backend source_hwrng = {
	"hwrng", hwrng_open, hwrng_read, hwrng_close, hwrng_probe,
};
