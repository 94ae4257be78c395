# The vendor JSON event catalogs pmucat installs: the kernel's tools/perf/pmu-events tables
# (another project's data: never committed here), one set per table set the release table names
# (include/pmucat/perf_releases.def): linux 7.3's (the default catalog), 7.2's where its source is
# given (--perf-semantics=7.2), 6.12's and 6.1's (what --perf-semantics=6.12 and 6.1 read). 6.1's and 6.12's are their arch/ trees, either
# given as a directory or extracted from Debian's linux-source tarball into the build tree once
# (only that path, ~15 s). 7.3's (and 7.2's) is what that perf's build feeds its jevents: the arch/ tree plus
# the JSON the kernel's own generator scripts write (cmake/PmucatGenerateEvents.cmake runs them
# at build time from the extracted tools/perf/pmu-events). The build compiles each JSON tree into
# a vendor event index (include/pmucat/vendor_index.h) with tools/vendor-index, under the jevents
# rules of its perf; the tools read the indexes, and they are what is installed.
#
# Sets, for the default set, and (suffixes _7_2, _6_12 and _6_1) for the older ones the build has
# besides the default:
#   PMUCAT_EVENTS_VERSION      the default set's kernel release (7.3; 6.12 or 6.1 without it)
#   PMUCAT_EVENTS_JSON_DIR     the JSON tree, empty when there is none
#   PMUCAT_EVENTS_DIR_BUILD    the index the build generates from it, empty when there is none
#   PMUCAT_EVENTS_INSTALL_DIR  where it is installed, relative to the prefix
# and, for the default set only, PMUCAT_EVENTS_DIR_FROM_BIN: its installed index relative to the
# installed tools. The default set's index is <build>/pmu-events-index, each other's
# pmu-events-index-<release> beside it, installed the same way under share/pmucat: the code finds
# an older set from the default set's path and the release alone (installed_vendor_index,
# include/pmucat/vendor_index_install.h), so no older set has a path of its own from bin/. Without linux 7.3's tables (or python3 to run its
# generators) the default set is 6.12's, without those 6.1's.
set(PMUCAT_PMU_EVENTS_DIR_6_12 "" CACHE PATH
    "A directory laid out like linux 6.12's tools/perf/pmu-events/arch (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL_6_12)")
set(PMUCAT_KERNEL_SOURCE_TARBALL_6_12 "/usr/src/linux-source-6.12.tar.xz" CACHE FILEPATH
    "Kernel 6.12 source tarball to take tools/perf/pmu-events/arch from when PMUCAT_PMU_EVENTS_DIR_6_12 is empty")
set(PMUCAT_PMU_EVENTS_DIR_6_1 "" CACHE PATH
    "A directory laid out like linux 6.1's tools/perf/pmu-events/arch (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL_6_1)")
set(PMUCAT_KERNEL_SOURCE_TARBALL_6_1 "/usr/src/linux-source-6.1.tar.xz" CACHE FILEPATH
    "Kernel 6.1 source tarball to take tools/perf/pmu-events/arch from when PMUCAT_PMU_EVENTS_DIR_6_1 is empty")
set(PMUCAT_PMU_EVENTS_SOURCE_7_3 "" CACHE PATH
    "linux 7.3's tools/perf/pmu-events directory (arch/ and the generator scripts; named pmu-events) (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL_7_3)")
set(PMUCAT_KERNEL_SOURCE_TARBALL_7_3 "/usr/src/linux-source-7.3.tar.xz" CACHE FILEPATH
    "Kernel 7.3 source tarball to take tools/perf/pmu-events from when PMUCAT_PMU_EVENTS_SOURCE_7_3 is empty")
set(PMUCAT_PMU_EVENTS_SOURCE_7_2 "" CACHE PATH
    "linux 7.2's tools/perf/pmu-events directory (arch/ and the generator scripts; named pmu-events) (empty: extract it from PMUCAT_KERNEL_SOURCE_TARBALL_7_2)")
set(PMUCAT_KERNEL_SOURCE_TARBALL_7_2 "/usr/src/linux-source-7.2.tar.xz" CACHE FILEPATH
    "Kernel 7.2 source tarball to take tools/perf/pmu-events from when PMUCAT_PMU_EVENTS_SOURCE_7_2 is empty")

# One table set: the JSON tree of `version` from `given_dir`, else from `tarball`; sets
# `out_var` to it (empty when neither exists).
function(pmucat_event_tables version given_dir tarball out_var)
  set(json_dir "")
  if(given_dir)
    if(NOT EXISTS ${given_dir}/x86/mapfile.csv)
      message(FATAL_ERROR "${given_dir} holds no x86/mapfile.csv: give linux ${version}'s "
                          "tools/perf/pmu-events/arch")
    endif()
    set(json_dir ${given_dir})
  elseif(EXISTS ${tarball})
    set(TARBALL ${tarball})
    set(DEST ${CMAKE_BINARY_DIR}/pmu-events-${version})
    include(${PROJECT_SOURCE_DIR}/cmake/PmucatExtractEvents.cmake)
    set(json_dir ${DEST}/arch)
  else()
    message(STATUS "No linux ${version} vendor JSON event catalogs: neither a directory nor "
                   "${tarball} (Debian: apt install linux-source-${version})")
  endif()
  set(${out_var} ${json_dir} PARENT_SCOPE)
endfunction()

# linux 7.3's or 7.2's set: its tools/perf/pmu-events from `given_dir`, else extracted from `tarball` at
# configure time; the tree the generators complete is written at build time
# (pmucat_vendor_index_rules). Sets `out_var` to that tree and `source_var` to the
# tools/perf/pmu-events it comes from (both empty when the set cannot be built: no source, or no
# python3 to run perf's generators).
function(pmucat_generated_event_tables version given_dir tarball out_var source_var)
  set(${out_var} "" PARENT_SCOPE)
  set(${source_var} "" PARENT_SCOPE)
  set(source "")
  if(given_dir)
    get_filename_component(name ${given_dir} NAME)
    if(NOT name STREQUAL "pmu-events" OR NOT EXISTS ${given_dir}/arch/x86/mapfile.csv)
      message(FATAL_ERROR "${given_dir} is not a tools/perf/pmu-events directory (one named "
                          "pmu-events, holding arch/x86/mapfile.csv): give linux ${version}'s")
    endif()
    set(source ${given_dir})
  elseif(EXISTS ${tarball})
    set(TARBALL ${tarball})
    set(DEST ${CMAKE_BINARY_DIR}/pmu-events-${version}-source)
    set(PART pmu-events)
    include(${PROJECT_SOURCE_DIR}/cmake/PmucatExtractEvents.cmake)
    set(source ${DEST}/pmu-events)
  else()
    message(STATUS "No linux ${version} vendor JSON event catalogs: neither a directory nor "
                   "${tarball} (Debian: scripts/dev.sh fetches linux-source-7.3 from "
                   "trixie-backports, scripts/perf-oracle-7.sh 7.2 linux-source-7.2 from sid)")
    return()
  endif()
  find_program(PMUCAT_EVENTS_PYTHON3 python3)
  if(NOT PMUCAT_EVENTS_PYTHON3)
    message(STATUS "No python3 to run linux ${version}'s pmu-events generators: its tables are "
                   "not built")
    return()
  endif()
  set(${out_var} ${CMAKE_BINARY_DIR}/pmu-events-${version}/arch PARENT_SCOPE)
  set(${source_var} ${source} PARENT_SCOPE)
endfunction()

pmucat_generated_event_tables(7.3 "${PMUCAT_PMU_EVENTS_SOURCE_7_3}"
                              "${PMUCAT_KERNEL_SOURCE_TARBALL_7_3}" PMUCAT_EVENTS_JSON_DIR_7_3
                              PMUCAT_EVENTS_SOURCE_7_3)
pmucat_generated_event_tables(7.2 "${PMUCAT_PMU_EVENTS_SOURCE_7_2}"
                              "${PMUCAT_KERNEL_SOURCE_TARBALL_7_2}" PMUCAT_EVENTS_JSON_DIR_7_2
                              PMUCAT_EVENTS_GENERATOR_SOURCE_7_2)
pmucat_event_tables(6.12 "${PMUCAT_PMU_EVENTS_DIR_6_12}" "${PMUCAT_KERNEL_SOURCE_TARBALL_6_12}"
                    PMUCAT_EVENTS_JSON_DIR_6_12)
pmucat_event_tables(6.1 "${PMUCAT_PMU_EVENTS_DIR_6_1}" "${PMUCAT_KERNEL_SOURCE_TARBALL_6_1}"
                    PMUCAT_EVENTS_JSON_DIR_6_1)

# The default set: the newest the build has; the older ones keep their suffixes.
set(PMUCAT_EVENTS_JSON_DIR "")
set(PMUCAT_EVENTS_VERSION "")
# The tools/perf/pmu-events whose generators complete the default set at build time, if any.
set(PMUCAT_EVENTS_GENERATOR_SOURCE "")
if(PMUCAT_EVENTS_JSON_DIR_7_3)
  set(PMUCAT_EVENTS_JSON_DIR ${PMUCAT_EVENTS_JSON_DIR_7_3})
  set(PMUCAT_EVENTS_VERSION 7.3)
  set(PMUCAT_EVENTS_GENERATOR_SOURCE ${PMUCAT_EVENTS_SOURCE_7_3})
elseif(PMUCAT_EVENTS_JSON_DIR_7_2)
  set(PMUCAT_EVENTS_JSON_DIR ${PMUCAT_EVENTS_JSON_DIR_7_2})
  set(PMUCAT_EVENTS_GENERATOR_SOURCE ${PMUCAT_EVENTS_GENERATOR_SOURCE_7_2})
  set(PMUCAT_EVENTS_JSON_DIR_7_2 "")
  set(PMUCAT_EVENTS_GENERATOR_SOURCE_7_2 "")
  set(PMUCAT_EVENTS_VERSION 7.2)
  message(STATUS "The default vendor catalog is linux 7.2's (no linux 7.3 tables)")
elseif(PMUCAT_EVENTS_JSON_DIR_6_12)
  set(PMUCAT_EVENTS_JSON_DIR ${PMUCAT_EVENTS_JSON_DIR_6_12})
  set(PMUCAT_EVENTS_JSON_DIR_6_12 "")
  set(PMUCAT_EVENTS_VERSION 6.12)
  message(STATUS "The default vendor catalog is linux 6.12's (no linux 7.3 tables)")
elseif(PMUCAT_EVENTS_JSON_DIR_6_1)
  set(PMUCAT_EVENTS_JSON_DIR ${PMUCAT_EVENTS_JSON_DIR_6_1})
  set(PMUCAT_EVENTS_JSON_DIR_6_1 "")
  set(PMUCAT_EVENTS_VERSION 6.1)
  message(STATUS "The default vendor catalog is linux 6.1's (no linux 7.3 or 6.12 tables)")
else()
  message(STATUS "No vendor JSON event catalogs: the tools will know sysfs events only, unless "
                 "given --events-dir")
endif()
# A release's tables when the build has them (default or not), for the tests that need one set.
set(PMUCAT_EVENTS_JSON_DIR_OF_6_12 ${PMUCAT_EVENTS_JSON_DIR_6_12})
if(PMUCAT_EVENTS_VERSION STREQUAL "6.12")
  set(PMUCAT_EVENTS_JSON_DIR_OF_6_12 ${PMUCAT_EVENTS_JSON_DIR})
endif()

set(PMUCAT_EVENTS_DIR_BUILD "")
set(PMUCAT_EVENTS_DIR_BUILD_7_2 "")
set(PMUCAT_EVENTS_DIR_BUILD_6_12 "")
set(PMUCAT_EVENTS_DIR_BUILD_6_1 "")
if(PMUCAT_EVENTS_JSON_DIR)
  set(PMUCAT_EVENTS_DIR_BUILD ${CMAKE_BINARY_DIR}/pmu-events-index)
endif()
foreach(set_suffix _7_2 _6_12 _6_1)
  string(REPLACE "_" "." release ${set_suffix})
  string(SUBSTRING ${release} 1 -1 release)
  if(PMUCAT_EVENTS_JSON_DIR${set_suffix})
    set(PMUCAT_EVENTS_DIR_BUILD${set_suffix} ${PMUCAT_EVENTS_DIR_BUILD}-${release})
  endif()
endforeach()
# linux 6.12's index, default or not, for the tests written against its tables.
set(PMUCAT_EVENTS_DIR_BUILD_OF_6_12 ${PMUCAT_EVENTS_DIR_BUILD_6_12})
if(PMUCAT_EVENTS_VERSION STREQUAL "6.12")
  set(PMUCAT_EVENTS_DIR_BUILD_OF_6_12 ${PMUCAT_EVENTS_DIR_BUILD})
endif()
set(PMUCAT_EVENTS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/pmucat/pmu-events-index)
set(PMUCAT_EVENTS_INSTALL_DIR_7_2 ${PMUCAT_EVENTS_INSTALL_DIR}-7.2)
set(PMUCAT_EVENTS_INSTALL_DIR_6_12 ${PMUCAT_EVENTS_INSTALL_DIR}-6.12)
set(PMUCAT_EVENTS_INSTALL_DIR_6_1 ${PMUCAT_EVENTS_INSTALL_DIR}-6.1)
file(RELATIVE_PATH PMUCAT_EVENTS_DIR_FROM_BIN /${CMAKE_INSTALL_BINDIR} /${PMUCAT_EVENTS_INSTALL_DIR})

# Called by tools/vendor-index once its generator target exists: the build steps that write the
# indexes (target vendor_index, part of `all`) and their install rules. Only the indexes are
# installed, not the JSON: they hold every field the tools read (docs/catalog.md, "Where the
# events come from").
function(pmucat_vendor_index_rules)
  set(markers "")
  foreach(set_suffix "" "_7_2" "_6_12" "_6_1")
    set(json_dir ${PMUCAT_EVENTS_JSON_DIR${set_suffix}})
    set(index_dir ${PMUCAT_EVENTS_DIR_BUILD${set_suffix}})
    set(install_dir ${PMUCAT_EVENTS_INSTALL_DIR${set_suffix}})
    if(NOT json_dir)
      continue()
    endif()
    if(set_suffix STREQUAL "")
      set(version ${PMUCAT_EVENTS_VERSION})
    else()
      string(REPLACE "_" "." version ${set_suffix})
      string(SUBSTRING ${version} 1 -1 version)
    endif()
    if(PMUCAT_EVENTS_GENERATOR_SOURCE${set_suffix})
      # The tree is written at build time: its inputs are perf's tables and generator scripts.
      set(source ${PMUCAT_EVENTS_GENERATOR_SOURCE${set_suffix}})
      get_filename_component(dest ${json_dir} DIRECTORY)
      set(stamp ${dest}/generated.stamp)
      file(GLOB_RECURSE generator_inputs ${source}/arch/*.json ${source}/arch/*.csv
           ${source}/*.py)
      add_custom_command(OUTPUT ${stamp}
        COMMAND ${CMAKE_COMMAND} -DSOURCE=${source} -DDEST=${dest}
                -DPYTHON=${PMUCAT_EVENTS_PYTHON3} -DSTAMP=${stamp}
                -P ${PROJECT_SOURCE_DIR}/cmake/PmucatGenerateEvents.cmake
        DEPENDS ${generator_inputs} ${PROJECT_SOURCE_DIR}/cmake/PmucatGenerateEvents.cmake
        COMMENT "Running linux ${version}'s pmu-events generators (what perf's build adds)"
        VERBATIM)
      set(json_inputs ${stamp})
    else()
      file(GLOB_RECURSE json_inputs ${json_dir}/*.json ${json_dir}/*.csv)
    endif()
    set(marker ${index_dir}/pmucat-index.version)
    add_custom_command(OUTPUT ${marker}
      COMMAND pmucat-vendor-index --rules ${version} ${json_dir} ${index_dir}
      DEPENDS pmucat-vendor-index ${json_inputs}
      COMMENT "Compiling the vendor event index of linux ${version} from ${json_dir}"
      VERBATIM)
    list(APPEND markers ${marker})
    install(DIRECTORY ${index_dir}/ DESTINATION ${install_dir} COMPONENT events)
  endforeach()
  if(markers)
    add_custom_target(vendor_index ALL DEPENDS ${markers})
  endif()
endfunction()

# The tree the unit tests written against linux 6.1's tables read: 6.1's set when the build has
# it (their counts and models are that kernel's), else the default one.
set(PMUCAT_TEST_TABLES_JSON ${PMUCAT_EVENTS_JSON_DIR})
set(PMUCAT_TEST_TABLES_INDEX ${PMUCAT_EVENTS_DIR_BUILD})
if(PMUCAT_EVENTS_JSON_DIR_6_1)
  set(PMUCAT_TEST_TABLES_JSON ${PMUCAT_EVENTS_JSON_DIR_6_1})
  set(PMUCAT_TEST_TABLES_INDEX ${PMUCAT_EVENTS_DIR_BUILD_6_1})
endif()
