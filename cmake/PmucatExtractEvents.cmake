# Extracts tools/perf/pmu-events/${PART} (PART: `arch`, the default, or `pmu-events` for the
# whole directory with perf's generator scripts) from a kernel source tarball into
# ${DEST}/${PART}, unless it is there already. Included by PmucatEvents.cmake, or run on its own
# (scripts/dev.sh):
#   cmake -DTARBALL=/usr/src/linux-source-6.1.tar.xz -DDEST=.cache/pmu-events/linux-6.1 -P cmake/PmucatExtractEvents.cmake
if(NOT PART)
  set(PART arch)
endif()
if(PART STREQUAL "arch")
  set(member "*/tools/perf/pmu-events/arch")
  set(strip 4)
  set(check ${PART}/x86/mapfile.csv)
else()
  set(member "*/tools/perf/pmu-events")
  set(strip 3)
  set(check ${PART}/arch/x86/mapfile.csv)
endif()
if(NOT EXISTS ${DEST}/${check})
  message(STATUS "Extracting tools/perf/pmu-events/${PART} from ${TARBALL} into ${DEST}")
  file(REMOVE_RECURSE ${DEST}.partial)
  file(MAKE_DIRECTORY ${DEST}.partial)
  # linux-source-6.1/tools/perf/pmu-events/arch/<arch>/... -> arch/<arch>/...
  execute_process(
    COMMAND tar -xf ${TARBALL} -C ${DEST}.partial --strip-components=${strip} --wildcards
            ${member}
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT EXISTS ${DEST}.partial/${check})
    file(REMOVE_RECURSE ${DEST}.partial)
    message(FATAL_ERROR "could not extract tools/perf/pmu-events/${PART} from ${TARBALL} "
                        "(tar: ${status})")
  endif()
  # Renamed only when complete, so an interrupted extraction is never taken for a catalog.
  file(REMOVE_RECURSE ${DEST})
  file(RENAME ${DEST}.partial ${DEST})
endif()
