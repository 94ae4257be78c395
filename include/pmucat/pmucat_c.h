/* pmucat's stable C API (libpmucat.so, SONAME libpmucat.so.0.1): open a sysfs PMU catalog,
 * encode an event spec into the caller's struct perf_event_attr, decode config words, list PMUs,
 * formats and events. Plain C99; no C++ exception crosses it. docs/c-api.md is the guide.
 *
 * Conventions
 *  - Handles are opaque. A catalog handle is used by one thread at a time (open one per thread,
 *    or lock around it): its last error and its returned strings live in the handle.
 *  - Functions that can fail return 0 on success and -1 on failure; the failure's diagnostic is
 *    then the handle's last error (pmucat_last_error(): clang-style text with file, line, column,
 *    caret and hint; pmucat_last_error_id(): the stable id, e.g. `spec-unknown-pmu`).
 *  - Strings returned are UTF-8, NUL-terminated and owned by the library: those about catalog
 *    entries (PMU, format and event names) live as long as the catalog; the others (last error,
 *    decode results, perf strings) until the next call on the same handle.
 *  - Indices are 0-based; an index out of range fails with id `api-invalid-argument`.
 *  - Arguments are checked before any work: a NULL handle makes a call return its failure value
 *    (-1, 0 or NULL: there is no handle to hold an error); a NULL pointer the function reads or
 *    writes through (unless its comment says it may be NULL), an unknown option or option value,
 *    an attr size that is not a perf_event_attr size or a spec longer than
 *    PMUCAT_MAX_SPEC_LENGTH fail with `api-invalid-argument` (`api-attr-size` for the attr size)
 *    and change nothing. */
#ifndef PMUCAT_PMUCAT_C_H
#define PMUCAT_PMUCAT_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define PMUCAT_C_API __attribute__((visibility("default")))
#else
#define PMUCAT_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The longest spec (in bytes, without its terminating NUL) pmucat_encode and pmucat_encode_list
 * take: the most one command-line argument can hold on Linux (MAX_ARG_STRLEN, 32 pages), so any
 * spec perf or pmuencode can be given. A longer one fails with `api-invalid-argument` before the
 * library reads past this many bytes or allocates anything for it. */
#define PMUCAT_MAX_SPEC_LENGTH 131072

/* A catalog: a sysfs tree (or a capture laid out like /sys) and, optionally, the kernel's vendor
 * JSON events for one CPU model. */
typedef struct pmucat_catalog pmucat_catalog;

/* The library's version, "MAJOR.MINOR.PATCH". */
PMUCAT_C_API const char* pmucat_version(void);

/* Opens a catalog. `sysfs`: /sys, a devices folder or a captured tree; NULL means
 * $PMUCAT_SYSFS, else /sys/bus/event_source/devices. `events_dir`: a directory laid out like the
 * kernel's tools/perf/pmu-events/arch, or NULL for sysfs events only. `cpuid`: perf's CPU
 * identifier choosing the vendor model (e.g. "GenuineIntel-6-8F"), or NULL.
 * Always stores a handle in *out (NULL only when out of memory), also on failure, so the caller
 * reads pmucat_last_error(*out) and then pmucat_close()s it. Returns 0 or -1. */
PMUCAT_C_API int pmucat_open(const char* sysfs, const char* events_dir, const char* cpuid,
                             pmucat_catalog** out);
/* Frees the handle and everything it returned. NULL is ignored. */
PMUCAT_C_API void pmucat_close(pmucat_catalog* catalog);

/* The last failure on this handle, rendered clang-style (several lines); "" when the last call
 * succeeded. Never NULL for a non-NULL handle. */
PMUCAT_C_API const char* pmucat_last_error(const pmucat_catalog* catalog);
/* The last failure's stable id (`spec-unknown-pmu`, `api-attr-size`, ...); "" when none. */
PMUCAT_C_API const char* pmucat_last_error_id(const pmucat_catalog* catalog);
/* The last failure as one JSON object, the encoding of every tool's --json output
 * (severity, id, file, line, column, length, message, source_line, hint, fixit); "" when none. */
PMUCAT_C_API const char* pmucat_last_error_json(const pmucat_catalog* catalog);

/* Encoding options (pmucat_set_option). */
typedef enum pmucat_option {
  /* 0: pmucat semantics (a user term overrides an alias's field; attr size 136),
   * 1: perf 6.1's (terms OR-ed into their field; attr size 128),
   * 612: perf 6.12's (as 6.1's but attr size 136 with config3), 702 and 703: perf 7.2's and
   * 7.3's (attr size 144): a release as MAJOR * 100 + MINOR (601 is 1's alias). Default 0.
   * pmucat_set_perf_semantics() takes the same by name. */
  PMUCAT_OPTION_PERF_SEMANTICS = 1,
  /* 0: like perf record (every special term applies to the attr), 1: like perf stat.
   * Default 0. */
  PMUCAT_OPTION_TOOL_STAT = 2
} pmucat_option;
/* `option` is a pmucat_option value, taken as int so that an unknown number is an error; `value`
 * must be one its comment lists. Anything else fails with `api-invalid-argument` and leaves the
 * option as it was. */
PMUCAT_C_API int pmucat_set_option(pmucat_catalog* catalog, int option, int value);
/* Which semantics to encode with, by name: "pmucat" (the default), or a perf release pmucat
 * follows ("6.1", "6.12"; also written "perf-6.12"). Any other name, a release pmucat does not
 * follow included, fails with `api-invalid-argument` and leaves the semantics as they were.
 * Returns 0 or -1. */
PMUCAT_C_API int pmucat_set_perf_semantics(pmucat_catalog* catalog, const char* name);

/* Encodes `spec` (perf's event syntax: "cpu/event=0x3c/u", "msr/tsc/", "cycles:k"; at most
 * PMUCAT_MAX_SPEC_LENGTH bytes) that stands for exactly one attr, into `attr`, a struct
 * perf_event_attr of `attr_size` bytes: pass sizeof(struct perf_event_attr) from the caller's
 * <linux/perf_event.h>. Exactly attr_size bytes are written (the whole struct, zeroed first;
 * attr->size = attr_size), never more. Fails with `api-attr-size` when attr_size is not a
 * perf_event_attr size (a multiple of 8, at least 64, PERF_ATTR_SIZE_VER0) or when the spec sets a
 * field the caller's struct lacks (config3 needs PERF_ATTR_SIZE_VER8, 136 bytes); the attr is then
 * left untouched. A spec that stands for several attrs fails with `encode-several-attrs`: use
 * pmucat_encode_list. The attr is what the spec determines (pmuencode's output): perf's tool
 * defaults are the caller's business, and exclude_guest is set as perf sets it — see docs/c-api.md
 * for the EINVAL retry perf does. */
PMUCAT_C_API int pmucat_encode(pmucat_catalog* catalog, const char* spec, void* attr,
                               size_t attr_size);

/* Encodes a spec list ("{cycles,instructions}:u,cpu/event=0x3c/"; at most
 * PMUCAT_MAX_SPEC_LENGTH bytes): every attr it stands for, kept in the handle until the next
 * encode_list on it (a failed one, a refused argument included, forgets them). Returns the number
 * of attrs (>= 1), or -1. Then read each with pmucat_encoded_attr / _pmu / _perf_string /
 * _group_leader. */
PMUCAT_C_API int pmucat_encode_list(pmucat_catalog* catalog, const char* spec);
/* Attr `index` of the last pmucat_encode_list, written as pmucat_encode writes. */
PMUCAT_C_API int pmucat_encoded_attr(pmucat_catalog* catalog, size_t index, void* attr,
                                     size_t attr_size);
/* The PMU instance attr `index` uses ("cpu", "uncore_cha_3"); NULL when out of range (last
 * error `api-invalid-argument`). */
PMUCAT_C_API const char* pmucat_encoded_pmu(pmucat_catalog* catalog, size_t index);
/* The canonical spec perf stat -e accepts for attr `index`; NULL when out of range (last error
 * `api-invalid-argument`). */
PMUCAT_C_API const char* pmucat_encoded_perf_string(pmucat_catalog* catalog, size_t index);
/* The index of attr `index`'s group leader (its own index for a leader), or -1: outside any
 * group (the last error is then "") or out of range (`api-invalid-argument`). Open a leader with
 * group_fd -1 and its members with the leader's fd. */
PMUCAT_C_API long pmucat_encoded_group_leader(pmucat_catalog* catalog, size_t index);

/* Decodes config words on `pmu` into the terms that produce them ("event=0x3c,umask=0x1"), and
 * the names of the events whose encoding matches them, comma-separated ("" when none), into
 * *terms and *events (`terms` and `events` may be NULL: that result is not wanted; `pmu` and
 * `config` may not). config[0..3] = config, config1, config2, config3. */
PMUCAT_C_API int pmucat_decode(pmucat_catalog* catalog, const char* pmu, const uint64_t config[4],
                               const char** terms, const char** events);

/* PMUs, naturally sorted by name. pmucat_pmu_count lists the devices folder once; it returns 0
 * for a NULL handle or one whose catalog failed to open (the last error says which). */
PMUCAT_C_API size_t pmucat_pmu_count(pmucat_catalog* catalog);
PMUCAT_C_API const char* pmucat_pmu_name(pmucat_catalog* catalog, size_t pmu);
/* The index of the PMU named exactly `name`, or -1 (last error `api-invalid-argument`). */
PMUCAT_C_API long pmucat_pmu_find(pmucat_catalog* catalog, const char* name);
/* The PMU's perf_event_attr.type into *type (`type` must not be NULL); -1 when its `type` file
 * is missing or invalid, *type then untouched. */
PMUCAT_C_API int pmucat_pmu_type(pmucat_catalog* catalog, size_t pmu, uint32_t* type);

/* format/ files of a PMU: name ("event") and content ("config:0-7", without the newline). */
PMUCAT_C_API size_t pmucat_format_count(pmucat_catalog* catalog, size_t pmu);
PMUCAT_C_API const char* pmucat_format_name(pmucat_catalog* catalog, size_t pmu, size_t format);
PMUCAT_C_API const char* pmucat_format_spec(pmucat_catalog* catalog, size_t pmu, size_t format);

/* Events of a PMU (sysfs events/ and, with an events_dir, the vendor JSON events), by name. */
PMUCAT_C_API size_t pmucat_event_count(pmucat_catalog* catalog, size_t pmu);
PMUCAT_C_API const char* pmucat_event_name(pmucat_catalog* catalog, size_t pmu, size_t event);
/* The event's terms as written ("event=0x3c"), without the file's trailing newline. */
PMUCAT_C_API const char* pmucat_event_terms(pmucat_catalog* catalog, size_t pmu, size_t event);
/* The vendor JSON description, or "" when none. */
PMUCAT_C_API const char* pmucat_event_description(pmucat_catalog* catalog, size_t pmu,
                                                  size_t event);
/* The sysfs .unit file's text, or "" when none. */
PMUCAT_C_API const char* pmucat_event_unit(pmucat_catalog* catalog, size_t pmu, size_t event);
/* The .scale factor, or 1.0 when none. */
PMUCAT_C_API double pmucat_event_scale(pmucat_catalog* catalog, size_t pmu, size_t event);

/* ---- Counting (docs/count.md) ----------------------------------------------------------------
 * A counting session: the events of a spec list opened as perf stat opens them, on a command
 * this process starts, on the threads of a process, or on CPUs; read, scaled for multiplexing as
 * perf does, and each value graded ("exact", "multiplexed", "not-counted", "not-supported",
 * "zero-count", "counts-lost", "uncore-per-task", "errata"), each grade with a one-line reason.
 * A value that was not counted has none: pmucat_count_value returns 1 and leaves *value alone. */
typedef struct pmucat_count pmucat_count;

/* Opens `spec` (a perf stat -e list) as encoded on `catalog`, which must outlive the session.
 * The target, first that applies: `argv` (a NULL-terminated command, looked up in PATH, started
 * now and held before exec until pmucat_count_start; its children inherit the counters), else
 * `pid` > 0 (every thread of that process), else `cpus` (a CPU list, "0-3,8"; "" for every online
 * CPU). Returns 0 and *out, or -1 with the catalog's last error (a spec that does not encode,
 * count-open-denied, count-nothing-opened, count-target-invalid, count-command-failed). */
PMUCAT_C_API int pmucat_count_open(pmucat_catalog* catalog, const char* spec,
                                   const char* const* argv, int pid, const char* cpus,
                                   pmucat_count** out);
/* Starts counting: lets the command exec (its counters enable there), or enables the counters. */
PMUCAT_C_API int pmucat_count_start(pmucat_count* count);
/* Waits for the command to exit and stores its status as a shell gives it (127 not found, 126
 * not executable, 128+N killed by signal N). Returns -1 without a command, before
 * pmucat_count_start (the command is held before exec until then), or when the command could not
 * exec (count-command-failed; the status is still stored). */
PMUCAT_C_API int pmucat_count_wait(pmucat_count* count, int* exit_status);
/* Reads every counter now (cumulative since start); the values are then asked by index. Returns
 * the number of values, or -1 (count-read-short, count-read-garbled). */
PMUCAT_C_API long pmucat_count_read(pmucat_count* count);
/* Value `index` of the last read: its event as written in the spec, its PMU. NULL past the end. */
PMUCAT_C_API const char* pmucat_count_event(pmucat_count* count, size_t index);
PMUCAT_C_API const char* pmucat_count_pmu(pmucat_count* count, size_t index);
/* Its value (scaled, times the event's .scale): 0 and *value, or 1 when it has none (not
 * counted, not supported), or -1 past the end. */
PMUCAT_C_API int pmucat_count_value(pmucat_count* count, size_t index, double* value);
/* Its raw count, and time enabled and running (ns), summed over CPUs and threads; any pointer
 * may be NULL. 0, or -1 past the end. */
PMUCAT_C_API int pmucat_count_times(pmucat_count* count, size_t index, uint64_t* raw,
                                    uint64_t* enabled, uint64_t* running);
/* Grade `grade` of value `index` (every value has at least one): its id, or NULL past the last;
 * and its reason ("" for exact). */
PMUCAT_C_API const char* pmucat_count_grade(pmucat_count* count, size_t index, size_t grade);
PMUCAT_C_API const char* pmucat_count_grade_reason(pmucat_count* count, size_t index, size_t grade);
/* The last error of a call on `count`, rendered ("" when none). */
PMUCAT_C_API const char* pmucat_count_last_error(const pmucat_count* count);
/* Closes every counter; a command never started is killed and reaped. NULL is ignored. */
PMUCAT_C_API void pmucat_count_close(pmucat_count* count);

#ifdef __cplusplus
}
#endif

#endif /* PMUCAT_PMUCAT_C_H */
