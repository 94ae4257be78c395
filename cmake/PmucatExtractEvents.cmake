# Extracts tools/perf/pmu-events/arch from a kernel source tarball into ${DEST}/arch, unless it
# is there already. Included by PmucatEvents.cmake, or run on its own (scripts/dev.sh):
#   cmake -DTARBALL=/usr/src/linux-source-6.1.tar.xz -DDEST=.cache/pmu-events/linux-6.1 -P cmake/PmucatExtractEvents.cmake
if(NOT EXISTS ${DEST}/arch/x86/mapfile.csv)
  message(STATUS "Extracting tools/perf/pmu-events/arch from ${TARBALL} into ${DEST}")
  file(REMOVE_RECURSE ${DEST}.partial)
  file(MAKE_DIRECTORY ${DEST}.partial)
  # linux-source-6.1/tools/perf/pmu-events/arch/<arch>/... -> arch/<arch>/...
  execute_process(
    COMMAND tar -xf ${TARBALL} -C ${DEST}.partial --strip-components=4 --wildcards
            "*/tools/perf/pmu-events/arch"
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT EXISTS ${DEST}.partial/arch/x86/mapfile.csv)
    file(REMOVE_RECURSE ${DEST}.partial)
    message(FATAL_ERROR "could not extract tools/perf/pmu-events/arch from ${TARBALL} "
                        "(tar: ${status})")
  endif()
  # Renamed only when complete, so an interrupted extraction is never taken for a catalog.
  file(REMOVE_RECURSE ${DEST})
  file(RENAME ${DEST}.partial ${DEST})
endif()
