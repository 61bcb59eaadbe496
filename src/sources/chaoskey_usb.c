/* SPDX-License-Identifier: GPL-3.0-or-later */
/* chaoskey_usb.c - the ChaosKey's raw endpoint through libusb-1.0.
 *
 * Finds 1d50:60c6 (and, with serial=, the device with that serial string),
 * detaches the kernel's chaoskey driver from interface 0 if it is bound
 * (its /dev/chaoskeyN and hwrng vanish for the run), claims the interface
 * and reads bulk transfers from endpoint 0x86; close releases it and
 * reattaches the driver.  Access needs write permission on the USB device
 * node (/dev/bus/usb/BBB/DDD): a udev rule matching the USB device
 * (SUBSYSTEM=="usb", ATTR{idVendor}=="1d50", ATTR{idProduct}=="60c6"),
 * not the usbmisc /dev/chaoskeyN node.  Built without libusb-1.0 the
 * transport reports itself unavailable and says why. */
#include "config.h"

#include "sources/chaoskey.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBUSB
#include <libusb.h>

/* A bulk read waits this long: the device streams continuously, so a
 * transfer that takes a second means it is gone or stalled. */
#define CHAOSKEY_USB_TIMEOUT_MS 1000

struct chaoskey_usb {
	libusb_context *ctx;
	libusb_device_handle *h;
	int reattach;                     /* the kernel driver was detached by us */
	int claimed;
};

static int chaoskey_usb_is(libusb_device *dev)
{
	struct libusb_device_descriptor d;

	return libusb_get_device_descriptor(dev, &d) == 0 && d.idVendor == CHAOSKEY_VENDOR &&
	       d.idProduct == CHAOSKEY_PRODUCT;
}

/* 1 if h's serial string is serial (or serial is NULL). */
static int chaoskey_usb_serial_is(libusb_device *dev, libusb_device_handle *h, const char *serial)
{
	struct libusb_device_descriptor d;
	unsigned char got[128];
	int n;

	if (!serial)
		return 1;
	if (libusb_get_device_descriptor(dev, &d) != 0 || !d.iSerialNumber)
		return 0;
	n = libusb_get_string_descriptor_ascii(h, d.iSerialNumber, got, sizeof got - 1);
	if (n < 0)
		return 0;
	got[n] = '\0';
	return strcmp((const char *)got, serial) == 0;
}

static void chaoskey_usb_close(void *p)
{
	struct chaoskey_usb *u = p;

	if (!u)
		return;
	if (u->claimed)
		libusb_release_interface(u->h, CHAOSKEY_INTERFACE);
	if (u->reattach)
		libusb_attach_kernel_driver(u->h, CHAOSKEY_INTERFACE);
	if (u->h)
		libusb_close(u->h);
	if (u->ctx)
		libusb_exit(u->ctx);
	free(u);
}

static int chaoskey_usb_err(int rc, const char *what, struct err *e)
{
	int code = rc == LIBUSB_ERROR_ACCESS ? ERR_PERM
		   : rc == LIBUSB_ERROR_NO_DEVICE || rc == LIBUSB_ERROR_NOT_FOUND ? ERR_UNAVAILABLE
		   : ERR_SOURCE;
	return err_set(e, code, "chaoskey: %s: %s%s", what, libusb_strerror(rc),
		       rc == LIBUSB_ERROR_ACCESS ? " (a udev rule for USB 1d50:60c6 grants access)" : "");
}

/* libusb_open failed on a ChaosKey: say which node and which permission.
 * libusb opens /dev/bus/usb/BBB/DDD read-write and turns EACCES into
 * LIBUSB_ERROR_ACCESS but EPERM, which the device cgroup gives (systemd's
 * DevicePolicy=closed without DeviceAllow=char-usb_device rw;
 * security/device_cgroup.c), into LIBUSB_ERROR_IO (libusb
 * os/linux_usbfs.c, get_usbfs_fd): open the node again to learn which. */
static int chaoskey_usb_denied(libusb_device *dev, int rc, struct err *e)
{
	char node[64];
	int fd, saved;

	snprintf(node, sizeof node, "/dev/bus/usb/%03u/%03u", libusb_get_bus_number(dev),
		 libusb_get_device_address(dev));
	fd = open(node, O_RDWR | O_CLOEXEC);
	saved = errno;
	if (fd >= 0) {
		close(fd);
		return chaoskey_usb_err(rc, "opening USB 1d50:60c6", e);
	}
	if (saved == EPERM)
		return err_set(e, ERR_PERM, "chaoskey: %s: %s (needs read-write access through the device "
			       "cgroup: a systemd unit needs DeviceAllow=char-usb_device rw)", node, strerror(saved));
	if (saved == EACCES)
		return err_set(e, ERR_PERM, "chaoskey: %s: %s (needs read-write permission: a udev rule for "
			       "USB 1d50:60c6 such as 60-rngaudit.rules' gives the rngaudit group mode 0660)",
			       node, strerror(saved));
	return err_set(e, err_code_from_errno(saved), "chaoskey: %s: %s", node, strerror(saved));
}

static int chaoskey_usb_open(void **out, const char *serial, char *what, size_t what_len,
			     struct err *e)
{
	struct chaoskey_usb *u = calloc(1, sizeof *u);
	libusb_device **list = NULL;
	ssize_t n;
	int rc, denied = 0;        /* the first refusal's ERR_*, said in e */

	*out = NULL;
	if (!u)
		return err_set(e, ERR_NOMEM, "chaoskey: out of memory");
	if ((rc = libusb_init(&u->ctx)) != 0) {
		u->ctx = NULL;
		chaoskey_usb_close(u);
		/* libusb_init opens a netlink socket to watch hotplug (udev's
		 * monitor): a sandbox without AF_NETLINK makes it fail */
		return err_set(e, ERR_SOURCE, "chaoskey: libusb_init: %s (libusb needs a netlink socket: "
			       "a systemd unit needs RestrictAddressFamilies=AF_NETLINK)", libusb_strerror(rc));
	}
	n = libusb_get_device_list(u->ctx, &list);
	for (ssize_t i = 0; i < n && !u->h; i++) {
		libusb_device_handle *h;

		if (!chaoskey_usb_is(list[i]))
			continue;
		rc = libusb_open(list[i], &h);
		if (rc != 0) {
			if (!denied && (rc == LIBUSB_ERROR_ACCESS || rc == LIBUSB_ERROR_IO))
				denied = chaoskey_usb_denied(list[i], rc, e);
			continue;
		}
		if (chaoskey_usb_serial_is(list[i], h, serial))
			u->h = h;
		else
			libusb_close(h);
	}
	if (n >= 0)
		libusb_free_device_list(list, 1);
	if (!u->h) {
		chaoskey_usb_close(u);
		if (denied)        /* e says which node and why */
			return denied;
		return err_set(e, ERR_UNAVAILABLE, "chaoskey: no ChaosKey (USB 1d50:60c6)%s%s found",
			       serial ? " with serial " : "", serial ? serial : "");
	}
	if (libusb_kernel_driver_active(u->h, CHAOSKEY_INTERFACE) == 1) {
		if ((rc = libusb_detach_kernel_driver(u->h, CHAOSKEY_INTERFACE)) != 0) {
			chaoskey_usb_close(u);
			return chaoskey_usb_err(rc, "detaching the kernel chaoskey driver", e);
		}
		u->reattach = 1;
		snprintf(what, what_len, "kernel chaoskey driver detached for the run "
			 "(its hwrng is back at close)");
	}
	if ((rc = libusb_claim_interface(u->h, CHAOSKEY_INTERFACE)) != 0) {
		chaoskey_usb_close(u);
		return chaoskey_usb_err(rc, "claiming interface 0", e);
	}
	u->claimed = 1;
	*out = u;
	return 0;
}

static ssize_t chaoskey_usb_read(void *p, uint8_t *buf, size_t len, struct err *e)
{
	struct chaoskey_usb *u = p;
	int got = 0, rc;

	rc = libusb_bulk_transfer(u->h, CHAOSKEY_EP_RAW, buf, (int)len, &got, CHAOSKEY_USB_TIMEOUT_MS);
	if (rc != 0 && !(rc == LIBUSB_ERROR_TIMEOUT && got > 0))
		return chaoskey_usb_err(rc, "reading the raw endpoint 0x86", e);
	return got;
}

static int chaoskey_usb_probe(char *why, size_t why_len)
{
	libusb_context *ctx = NULL;
	libusb_device **list = NULL;
	ssize_t n;
	int found = 0;

	if (libusb_init(&ctx) != 0) {
		snprintf(why, why_len, "libusb could not start (no USB here?)");
		return 0;
	}
	n = libusb_get_device_list(ctx, &list);
	for (ssize_t i = 0; i < n; i++)
		found |= chaoskey_usb_is(list[i]);
	if (n >= 0)
		libusb_free_device_list(list, 1);
	libusb_exit(ctx);
	if (!found)
		snprintf(why, why_len, "no ChaosKey (USB 1d50:60c6) plugged in");
	return found;
}

#else /* !HAVE_LIBUSB */

static int chaoskey_usb_open(void **out, const char *serial, char *what, size_t what_len,
			     struct err *e)
{
	(void)serial; (void)what; (void)what_len;
	*out = NULL;
	return err_set(e, ERR_UNAVAILABLE, "chaoskey: built without libusb-1.0 (install "
		       "libusb-1.0-0-dev and configure again)");
}

static ssize_t chaoskey_usb_read(void *p, uint8_t *buf, size_t len, struct err *e)
{
	(void)p; (void)buf; (void)len;
	return err_set(e, ERR_UNAVAILABLE, "chaoskey: built without libusb-1.0");
}

static void chaoskey_usb_close(void *p)
{
	(void)p;
}

static int chaoskey_usb_probe(char *why, size_t why_len)
{
	snprintf(why, why_len, "built without libusb-1.0 (libusb-1.0-0-dev at configure time)");
	return 0;
}

#endif

const struct chaoskey_transport chaoskey_usb = {
	"libusb-1.0", chaoskey_usb_open, chaoskey_usb_read, chaoskey_usb_close, chaoskey_usb_probe,
};
