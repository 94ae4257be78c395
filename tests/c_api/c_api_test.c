/* The C API from C (compiled as C11, so the header is checked to be C): open, encode into
 * struct perf_event_attr of every ABI size, errors as the handle's last diagnostic, decode,
 * iteration. Exits non-zero on the first failed check, printing it. Run from the source root. */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmucat/pmucat_c.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* A buffer larger than any attr, to see that nothing past attr_size is written. */
typedef struct {
  unsigned char bytes[256];
} buffer;

static int untouched_from(const buffer* b, size_t from, unsigned char fill) {
  for (size_t i = from; i < sizeof b->bytes; ++i) {
    if (b->bytes[i] != fill) return 0;
  }
  return 1;
}

static void test_open_failure(void) {
  pmucat_catalog* catalog = NULL;
  CHECK(pmucat_open("fixtures/sysfs/no-such-tree", NULL, NULL, &catalog) == -1);
  CHECK(catalog != NULL);
  CHECK(strlen(pmucat_last_error(catalog)) > 0);
  CHECK(strstr(pmucat_last_error(catalog), "no-such-tree") != NULL);
  CHECK(strncmp(pmucat_last_error_id(catalog), "catalog-", 8) == 0);
  CHECK(pmucat_last_error_json(catalog)[0] == '{');
  /* A failed handle refuses work with a clear error rather than crashing. */
  struct perf_event_attr attr;
  CHECK(pmucat_encode(catalog, "cycles", &attr, sizeof attr) == -1);
  CHECK(pmucat_pmu_count(catalog) == 0);
  pmucat_close(catalog);
  pmucat_close(NULL);
}

static void test_encode(pmucat_catalog* catalog) {
  struct perf_event_attr attr;
  memset(&attr, 0xff, sizeof attr);
  CHECK(pmucat_encode(catalog, "cpu/event=0x3c,umask=0x1/u", &attr, sizeof attr) == 0);
  CHECK(strcmp(pmucat_last_error(catalog), "") == 0);
  CHECK(attr.type == 4);
  CHECK(attr.size == sizeof attr);
  CHECK(attr.config == 0x13c);
  CHECK(attr.exclude_kernel == 1);
  CHECK(attr.exclude_hv == 1);
  CHECK(attr.exclude_user == 0);
  CHECK(attr.sample_period == 0);

  /* Every ABI size: exactly attr_size bytes written, size set to it. */
  static const size_t sizes[] = {64, 72, 80, 96, 104, 112, 120, 128, 136, 144};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    buffer b;
    memset(&b, 0xa5, sizeof b);
    CHECK(pmucat_encode(catalog, "cpu/event=0x3c/k", b.bytes, sizes[i]) == 0);
    uint32_t size = 0;
    memcpy(&size, b.bytes + 4, sizeof size);
    CHECK(size == sizes[i]);
    CHECK(untouched_from(&b, sizes[i], 0xa5));
  }

  /* Not an attr size: refused, nothing written. */
  buffer b;
  memset(&b, 0xa5, sizeof b);
  CHECK(pmucat_encode(catalog, "cpu/event=0x3c/", b.bytes, 60) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-attr-size") == 0);
  CHECK(pmucat_encode(catalog, "cpu/event=0x3c/", b.bytes, 100) == -1);
  CHECK(untouched_from(&b, 0, 0xa5));
  CHECK(pmucat_encode(catalog, "cpu/event=0x3c/", NULL, 136) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);

  /* A located spec error, rendered clang-style with a caret. */
  CHECK(pmucat_encode(catalog, "cpu/evnt=1/", &attr, sizeof attr) == -1);
  CHECK(strstr(pmucat_last_error(catalog), "<spec>:1:") != NULL);
  CHECK(strstr(pmucat_last_error(catalog), "^") != NULL);
  CHECK(strstr(pmucat_last_error_json(catalog), "\"column\"") != NULL);

  /* Several attrs: pmucat_encode refuses, pmucat_encode_list gives them. */
  CHECK(pmucat_encode(catalog, "{cycles,instructions}:u", &attr, sizeof attr) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "encode-several-attrs") == 0);
  CHECK(pmucat_encode_list(catalog, "{cycles,instructions}:u") == 2);
  CHECK(pmucat_encoded_group_leader(catalog, 0) == 0);
  CHECK(pmucat_encoded_group_leader(catalog, 1) == 0);
  CHECK(pmucat_encoded_group_leader(catalog, 2) == -1);
  CHECK(strcmp(pmucat_encoded_pmu(catalog, 1), "cpu") == 0);
  CHECK(pmucat_encoded_perf_string(catalog, 1) != NULL);
  CHECK(pmucat_encoded_pmu(catalog, 2) == NULL);
  CHECK(pmucat_encoded_attr(catalog, 1, &attr, sizeof attr) == 0);
  CHECK(attr.exclude_kernel == 1);
  CHECK(pmucat_encoded_attr(catalog, 2, &attr, sizeof attr) == -1);

  /* Options: perf 6.1 semantics OR an alias's field with the user's. */
  CHECK(pmucat_set_option(catalog, 99, 1) == -1);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 1) == 0);
  CHECK(pmucat_encode(catalog, "cpu/event=0x3c/", &attr, sizeof attr) == 0);
  /* perf 6.1 has no legacy name among a PMU's terms; 612, perf 6.12, reads `cycles` there as
   * the legacy hardware event. */
  CHECK(pmucat_encode(catalog, "cpu/cycles/", &attr, sizeof attr) == -1);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 612) == 0);
  CHECK(pmucat_encode(catalog, "cpu/cycles/", &attr, sizeof attr) == 0);
  CHECK(attr.type == 0 && attr.config == 0);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 0) == 0);
  /* A release pmucat does not follow is an error, never another release's semantics: the
   * semantics stay as they were (pmucat's: `cpu/cycles/` is the legacy term). */
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 999) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 2) == -1);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, -612) == -1);

  /* By name: the same releases, through the parser the CLI and Python use. */
  CHECK(pmucat_set_perf_semantics(catalog, "6.1") == 0);
  CHECK(pmucat_encode(catalog, "cpu/cycles/", &attr, sizeof attr) == -1);
  CHECK(pmucat_set_perf_semantics(catalog, "perf-6.12") == 0);
  CHECK(pmucat_encode(catalog, "cpu/cycles/", &attr, sizeof attr) == 0);
  CHECK(attr.type == 0 && attr.config == 0);
  CHECK(pmucat_set_perf_semantics(catalog, "7.1") == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_set_perf_semantics(catalog, "6") == -1);
  CHECK(pmucat_set_perf_semantics(catalog, NULL) == -1);
  CHECK(pmucat_set_perf_semantics(NULL, "6.1") == -1);
  /* Still 6.12's after the failures. */
  CHECK(pmucat_encode(catalog, "cpu/cycles/", &attr, sizeof attr) == 0);
  CHECK(pmucat_set_perf_semantics(catalog, "pmucat") == 0);
}

static void test_decode_and_lists(pmucat_catalog* catalog) {
  const uint64_t config[4] = {0x13c, 0, 0, 0};
  const char* terms = NULL;
  const char* events = NULL;
  CHECK(pmucat_decode(catalog, "cpu", config, &terms, &events) == 0);
  CHECK(terms != NULL && strcmp(terms, "event=0x3c,umask=0x1") == 0);
  CHECK(events != NULL);
  CHECK(pmucat_decode(catalog, "no_such_pmu", config, &terms, NULL) == -1);

  const size_t count = pmucat_pmu_count(catalog);
  CHECK(count > 10);
  const long cpu = pmucat_pmu_find(catalog, "cpu");
  CHECK(cpu >= 0);
  CHECK(strcmp(pmucat_pmu_name(catalog, (size_t)cpu), "cpu") == 0);
  CHECK(pmucat_pmu_find(catalog, "nope") == -1);
  CHECK(pmucat_pmu_name(catalog, count) == NULL);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  uint32_t type = 0;
  CHECK(pmucat_pmu_type(catalog, (size_t)cpu, &type) == 0);
  CHECK(type == 4);

  int found_event_format = 0;
  for (size_t i = 0; i < pmucat_format_count(catalog, (size_t)cpu); ++i) {
    if (strcmp(pmucat_format_name(catalog, (size_t)cpu, i), "event") == 0) {
      found_event_format = strcmp(pmucat_format_spec(catalog, (size_t)cpu, i), "config:0-7") == 0;
    }
  }
  CHECK(found_event_format);
  const size_t n_events = pmucat_event_count(catalog, (size_t)cpu);
  CHECK(n_events > 0);
  int found_cycles = 0;
  for (size_t i = 0; i < n_events; ++i) {
    const char* name = pmucat_event_name(catalog, (size_t)cpu, i);
    CHECK(name != NULL);
    CHECK(pmucat_event_terms(catalog, (size_t)cpu, i) != NULL);
    CHECK(pmucat_event_unit(catalog, (size_t)cpu, i) != NULL);
    CHECK(pmucat_event_description(catalog, (size_t)cpu, i) != NULL);
    if (name != NULL && strcmp(name, "cpu-cycles") == 0) {
      found_cycles = strcmp(pmucat_event_terms(catalog, (size_t)cpu, i), "event=0x3c") == 0;
    }
  }
  CHECK(found_cycles);
  CHECK(pmucat_event_name(catalog, (size_t)cpu, n_events) == NULL);
}

/* Every argument the header says is checked: NULL handles, pointers and out-of-range values fail
 * with `api-invalid-argument` and change nothing (issue 40). */
static void test_argument_checks(pmucat_catalog* catalog) {
  struct perf_event_attr attr;
  uint32_t type = 0xdeadbeef;
  const uint64_t config[4] = {0x3c, 0, 0, 0};
  const char* terms = NULL;

  /* A NULL handle: the failure value of each function, no crash. */
  CHECK(pmucat_open("fixtures/sysfs/intel-spr", NULL, NULL, NULL) == -1);
  CHECK(pmucat_set_option(NULL, PMUCAT_OPTION_TOOL_STAT, 1) == -1);
  CHECK(pmucat_encode(NULL, "cycles", &attr, sizeof attr) == -1);
  CHECK(pmucat_encode_list(NULL, "cycles") == -1);
  CHECK(pmucat_encoded_attr(NULL, 0, &attr, sizeof attr) == -1);
  CHECK(pmucat_encoded_pmu(NULL, 0) == NULL);
  CHECK(pmucat_encoded_perf_string(NULL, 0) == NULL);
  CHECK(pmucat_encoded_group_leader(NULL, 0) == -1);
  CHECK(pmucat_decode(NULL, "cpu", config, &terms, NULL) == -1);
  CHECK(pmucat_pmu_count(NULL) == 0);
  CHECK(pmucat_pmu_name(NULL, 0) == NULL);
  CHECK(pmucat_pmu_find(NULL, "cpu") == -1);
  CHECK(pmucat_pmu_type(NULL, 0, &type) == -1);
  CHECK(pmucat_format_count(NULL, 0) == 0);
  CHECK(pmucat_format_name(NULL, 0, 0) == NULL);
  CHECK(pmucat_format_spec(NULL, 0, 0) == NULL);
  CHECK(pmucat_event_count(NULL, 0) == 0);
  CHECK(pmucat_event_name(NULL, 0, 0) == NULL);
  CHECK(pmucat_event_terms(NULL, 0, 0) == NULL);
  CHECK(pmucat_event_description(NULL, 0, 0) == NULL);
  CHECK(pmucat_event_unit(NULL, 0, 0) == NULL);
  CHECK(pmucat_event_scale(NULL, 0, 0) == 1.0);
  CHECK(strcmp(pmucat_last_error(NULL), "") == 0);
  CHECK(strcmp(pmucat_last_error_id(NULL), "") == 0);
  CHECK(strcmp(pmucat_last_error_json(NULL), "") == 0);

  /* NULL out-pointers the function writes through. */
  const long cpu = pmucat_pmu_find(catalog, "cpu");
  CHECK(cpu >= 0);
  CHECK(pmucat_pmu_type(catalog, (size_t)cpu, NULL) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(strstr(pmucat_last_error(catalog), "type is NULL") != NULL);
  CHECK(pmucat_pmu_type(catalog, pmucat_pmu_count(catalog), &type) == -1);
  CHECK(type == 0xdeadbeef);
  CHECK(pmucat_decode(catalog, NULL, config, &terms, NULL) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_decode(catalog, "cpu", NULL, &terms, NULL) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_decode(catalog, "cpu", config, NULL, NULL) == 0); /* both results may be NULL */
  CHECK(pmucat_pmu_find(catalog, NULL) == -1);
  CHECK(pmucat_encode(catalog, NULL, &attr, sizeof attr) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_encode(catalog, "cycles", &attr, 0) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-attr-size") == 0);

  /* The encoded list: out of range and NULL attrs are errors; a refused list forgets the last. */
  CHECK(pmucat_encode_list(catalog, "cycles,{instructions,branches}") == 3);
  CHECK(pmucat_encoded_attr(catalog, 0, NULL, sizeof attr) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_encoded_group_leader(catalog, 0) == -1); /* outside any group: not an error */
  CHECK(strcmp(pmucat_last_error(catalog), "") == 0);
  CHECK(pmucat_encoded_group_leader(catalog, 2) == 1);
  CHECK(pmucat_encoded_group_leader(catalog, 3) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_encoded_pmu(catalog, 3) == NULL);
  CHECK(strstr(pmucat_last_error(catalog), "out of range") != NULL);
  CHECK(pmucat_encoded_perf_string(catalog, 0) != NULL);
  CHECK(strcmp(pmucat_last_error(catalog), "") == 0);
  CHECK(pmucat_encoded_perf_string(catalog, (size_t)-1) == NULL);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_encode_list(catalog, NULL) == -1);
  CHECK(pmucat_encoded_pmu(catalog, 0) == NULL);

  /* Option values: only the documented ones; a refused value keeps the option as it was. */
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_TOOL_STAT, 7) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(strstr(pmucat_last_error(catalog), "PMUCAT_OPTION_TOOL_STAT") != NULL);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_TOOL_STAT, -1) == -1);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_TOOL_STAT, 1) == 0);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_TOOL_STAT, 0) == 0);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 612) == 0);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 7) == -1);
  CHECK(strstr(pmucat_last_error(catalog), "612") != NULL);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 2) == -1);
  CHECK(pmucat_encode(catalog, "cpu/cycles/", &attr, sizeof attr) == 0); /* still perf 6.12 */
  CHECK(attr.type == 0 && attr.config == 0);
  CHECK(pmucat_set_option(catalog, PMUCAT_OPTION_PERF_SEMANTICS, 0) == 0);
  CHECK(pmucat_set_option(catalog, 0, 0) == -1);
  CHECK(pmucat_set_option(catalog, 3, 0) == -1);
}

/* Specs are bounded by PMUCAT_MAX_SPEC_LENGTH: one byte more is refused before the library reads
 * past the cap (the buffer has no terminating NUL: ASan sees any read beyond it). */
static void test_spec_cap(pmucat_catalog* catalog) {
  struct perf_event_attr attr;
  char* spec = malloc(PMUCAT_MAX_SPEC_LENGTH + 1);
  CHECK(spec != NULL);
  if (spec == NULL) return;
  memset(spec, 'x', PMUCAT_MAX_SPEC_LENGTH + 1);
  CHECK(pmucat_encode(catalog, spec, &attr, sizeof attr) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(strstr(pmucat_last_error(catalog), "PMUCAT_MAX_SPEC_LENGTH") != NULL);
  CHECK(pmucat_encode_list(catalog, spec) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  /* At the cap: parsed (and refused by the parser, with its own id). */
  spec[PMUCAT_MAX_SPEC_LENGTH] = '\0';
  CHECK(pmucat_encode_list(catalog, spec) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") != 0);
  CHECK(strcmp(pmucat_last_error_id(catalog), "") != 0);
  free(spec);
}

/* config3 (PERF_ATTR_SIZE_VER8) into an older struct: refused, with the field named. */
static void test_config3(void) {
  pmucat_catalog* catalog = NULL;
  CHECK(pmucat_open("fixtures/sysfs/arm-neoverse", NULL, NULL, &catalog) == 0);
  buffer b;
  memset(&b, 0xa5, sizeof b);
  CHECK(pmucat_encode(catalog, "arm_spe_0/inv_event_filter=0x2/", b.bytes, 128) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-attr-size") == 0);
  CHECK(strstr(pmucat_last_error(catalog), "config3") != NULL);
  CHECK(untouched_from(&b, 0, 0xa5));
  CHECK(pmucat_encode(catalog, "arm_spe_0/inv_event_filter=0x2/", b.bytes, 136) == 0);
  uint64_t config3 = 0;
  memcpy(&config3, b.bytes + 128, sizeof config3);
  CHECK(config3 == 0x2);
  CHECK(untouched_from(&b, 136, 0xa5));
  pmucat_close(catalog);
}

/* The counting calls' argument checks, which need no perf_event_open (the counting itself is
 * examples/c/count_page_faults.c, run where this kernel lets it count). */
static void test_count_arguments(pmucat_catalog* catalog) {
  pmucat_count* count = (pmucat_count*)1;
  CHECK(pmucat_count_open(catalog, "cpu/event=0x3c/", NULL, 0, "0", NULL) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_count_open(catalog, "cpu/nosuchterm=1/", NULL, 0, "0", &count) == -1);
  CHECK(count == NULL);
  CHECK(pmucat_count_open(catalog, "cpu/event=0x3c/", NULL, 0, NULL, &count) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "api-invalid-argument") == 0);
  CHECK(pmucat_count_open(catalog, "cpu/event=0x3c/", NULL, 0, "0-x", &count) == -1);
  CHECK(pmucat_count_open(catalog, "cpu/event=0x3c/", NULL, 2147483600, NULL, &count) == -1);
  CHECK(strcmp(pmucat_last_error_id(catalog), "count-target-invalid") == 0);
  /* NULL handles are refused, never dereferenced. */
  CHECK(pmucat_count_read(NULL) == -1);
  CHECK(pmucat_count_event(NULL, 0) == NULL);
  CHECK(strcmp(pmucat_count_last_error(NULL), "") == 0);
  pmucat_count_close(NULL);
}

int main(void) {
  CHECK(strlen(pmucat_version()) >= 5);
  test_open_failure();
  pmucat_catalog* catalog = NULL;
  CHECK(pmucat_open("fixtures/sysfs/intel-spr", NULL, NULL, &catalog) == 0);
  if (catalog == NULL || failures != 0) return 1;
  test_encode(catalog);
  test_decode_and_lists(catalog);
  test_argument_checks(catalog);
  test_spec_cap(catalog);
  test_count_arguments(catalog);
  pmucat_close(catalog);
  test_config3();
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
