/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_json.c - the SHA-256 NIST's tools print (FIPS 180-4 test vectors)
 * and the JSON layout of jsoncpp's StyledWriter that their -o files use. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "sha256.h"
#include "tap.h"

static char *render(const struct json *v)
{
	static char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	json_write(fp, v);
	fclose(fp);
	return buf;
}

int main(void)
{
	char hex[SHA256_HEX];
	char *million = malloc(1000000);
	struct json *doc = json_new(JSON_OBJECT), *arr, *o, *nums;

	sha256_hex("", 0, hex);
	tap_eq_str(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256 of nothing");
	sha256_hex("abc", 3, hex);
	tap_eq_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256 of abc");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	tap_eq_str(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		   "sha256 of the 448-bit FIPS vector (padding spills into a second block)");
	memset(million, 'a', 1000000);
	sha256_hex(million, 1000000, hex);
	tap_eq_str(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		   "sha256 of a million 'a'");
	free(million);

	json_set_string(doc, "type", "");
	json_set_bool(doc, "IID", 0);
	json_set_int(doc, "errorLevel", 0);
	json_set_new(doc, "testCases", JSON_ARRAY, &arr);
	json_append_new(arr, JSON_OBJECT, &o);
	json_set_real(o, "hAssessed", 4);
	json_set_real(o, "h_c", 0.1);
	json_set_real(o, "mcvEstimatePHat", 0.0659);
	json_set_string(o, "testCaseDesc", "a \"b\"\\\n\x01\xc3\xa9");
	json_set_new(doc, "list", JSON_ARRAY, &nums);
	json_append_real(nums, 1);
	json_append_real(nums, -0.0);
	tap_eq_str(render(doc),
		   "{\n"
		   "   \"IID\" : false,\n"
		   "   \"errorLevel\" : 0,\n"
		   "   \"list\" : [ 1.0, -0.0 ],\n"
		   "   \"testCases\" : [\n"
		   "      {\n"
		   "         \"hAssessed\" : 4.0,\n"
		   "         \"h_c\" : 0.10000000000000001,\n"
		   "         \"mcvEstimatePHat\" : 0.0659,\n"
		   "         \"testCaseDesc\" : \"a \\\"b\\\"\\\\\\n\\u0001\\u00e9\"\n"
		   "      }\n"
		   "   ],\n"
		   "   \"type\" : \"\"\n"
		   "}\n",
		   "StyledWriter layout: sorted keys, 3-space indent, reals with .0, escapes, short array on one line");
	json_set_int(doc, "errorLevel", -1);
	tap_ok(strstr(render(doc), "\"errorLevel\" : -1,") != NULL, "setting a key again replaces its value");
	for (int i = 0; i < 30; i++)
		json_append_real(nums, i);
	tap_ok(strstr(render(doc), "\"list\" : [\n      1.0,\n      -0.0,\n") != NULL,
	       "a long scalar array: one element per line");
	json_free(doc);
	return tap_done();
}
