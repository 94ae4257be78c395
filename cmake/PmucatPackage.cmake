# Debian packages of a build (docs/packaging.md): CPack's DEB generator over the install
# components, in a build configured for /usr with -DPMUCAT_PACKAGE_DEB=ON (`scripts/dev.sh deb`
# does it and checks the result with lintian and an install in a throw-away root).
#
#   package          install components                 architecture
#   libpmucat0.1     shlib (libpmucat.so.0.1*)          the build's
#   libpmucat-dev    core check perfdata count proto c   the build's
#   pmucat           tools (the tools, man pages, bash completion)
#   python3-pmucat   python
#   pmucat-events    events (the compiled vendor tables) all
#
# The shared library's package is named after its SONAME (libpmucat.so.0.1: the C++ ABI may
# change with each minor version before 1.0), as Debian's library policy and lintian want.
option(PMUCAT_PACKAGE_DEB "Install rules and CPack settings for Debian packages (prefix /usr)" OFF)
if(NOT PMUCAT_PACKAGE_DEB)
  return()
endif()
if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "PMUCAT_PACKAGE_DEB needs -DCMAKE_INSTALL_PREFIX=/usr")
endif()
find_program(PMUCAT_GO_MD2MAN go-md2man REQUIRED)
find_program(PMUCAT_GZIP gzip REQUIRED)

set(_deb_maintainer "pmucat maintainers <maintainers@pmucat.org>")
set(_deb_version ${PROJECT_VERSION})
set(_deb_doc ${PROJECT_BINARY_DIR}/deb-doc)

# One package's /usr/share/doc/<package>/: the copyright file (machine-readable format) and the
# changelog a native package carries, compressed as Debian compresses it (gzip -9n: no name, no
# time stamp, so the file is reproducible).
function(_pmucat_deb_doc package component license_block)
  set(dir ${_deb_doc}/${package})
  file(MAKE_DIRECTORY ${dir})
  file(READ ${PROJECT_SOURCE_DIR}/LICENSE mit_text)
  string(REGEX REPLACE "\n\n" "\n.\n" mit_text "${mit_text}")
  string(REGEX REPLACE "\n([^\n])" "\n \\1" mit_text "${mit_text}")
  string(REGEX REPLACE "\n+$" "" mit_text "${mit_text}")
  file(WRITE ${dir}/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pmucat
Upstream-Contact: ${_deb_maintainer}

Files: *
Copyright: 2026 The pmucat authors
License: Expat
${license_block}
License: Expat
 ${mit_text}
")
  string(TIMESTAMP date "%a, %d %b %Y 00:00:00 +0000" UTC)
  file(WRITE ${dir}/changelog
"pmucat (${_deb_version}) unstable; urgency=medium

  * Built with CPack from the upstream tree (scripts/dev.sh deb).

 -- ${_deb_maintainer}  ${date}
")
  execute_process(COMMAND ${PMUCAT_GZIP} -9nf ${dir}/changelog COMMAND_ERROR_IS_FATAL ANY)
  install(FILES ${dir}/copyright ${dir}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endfunction()

_pmucat_deb_doc(libpmucat0.1 shlib "")
_pmucat_deb_doc(libpmucat-dev core "")
_pmucat_deb_doc(pmucat tools "")
_pmucat_deb_doc(python3-pmucat python "")
# The tables are compiled from the Linux kernel's tools/perf/pmu-events/arch JSON files, which
# carry the kernel's licence.
_pmucat_deb_doc(pmucat-events events
"
Files: usr/share/pmucat/*
Copyright: The Linux kernel's perf event list authors (Intel, AMD, Arm, IBM, RISC-V vendors and
 others), compiled by pmucat's vendor index generator
License: GPL-2
 The vendor event tables are compiled from the JSON files of the Linux kernel's
 tools/perf/pmu-events/arch, distributed under the GNU General Public License, version 2.
 .
 On Debian systems, the complete text of the GNU General Public License version 2 can be found
 in /usr/share/common-licenses/GPL-2.
")

# Man pages: docs/man/<tool>.1.md (pandoc's title block) through go-md2man, whose 2.0 release
# copies the title block into .TH as it is; cmake/PmucatManPage.cmake writes a proper .TH line
# and compresses the page.
set(man_pages "")
file(GLOB man_sources ${PROJECT_SOURCE_DIR}/docs/man/*.1.md)
foreach(source IN LISTS man_sources)
  get_filename_component(name ${source} NAME_WE)
  if(name STREQUAL "pmudata" AND NOT PMUCAT_BUILD_PROTO)
    continue()
  endif()
  set(page ${PROJECT_BINARY_DIR}/man/${name}.1.gz)
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -DIN=${source} -DOUT=${page} -DGO_MD2MAN=${PMUCAT_GO_MD2MAN}
            -DGZIP=${PMUCAT_GZIP} -DVERSION=${PROJECT_VERSION}
            -P ${PROJECT_SOURCE_DIR}/cmake/PmucatManPage.cmake
    DEPENDS ${source} ${PROJECT_SOURCE_DIR}/cmake/PmucatManPage.cmake
    COMMENT "Man page ${name}(1)" VERBATIM)
  list(APPEND man_pages ${page})
endforeach()
add_custom_target(man_pages ALL DEPENDS ${man_pages})
install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)

set(CPACK_GENERATOR DEB)
# Empty, so that CPack does not put the project's description before each package's own synopsis.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGE_NAME pmucat)
set(CPACK_PACKAGE_VENDOR "The pmucat authors")
set(CPACK_PACKAGE_VERSION ${_deb_version})
set(CPACK_PACKAGE_CONTACT "${_deb_maintainer}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${_deb_maintainer}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)

set(_dev_components core check perfdata count c)
if(PMUCAT_BUILD_PROTO)
  list(APPEND _dev_components proto)
endif()
# (CPack reads CPACK_COMPONENT_<COMPONENT>_GROUP with the component's name upper-cased.)
foreach(component IN LISTS _dev_components)
  string(TOUPPER ${component} upper)
  set(CPACK_COMPONENT_${upper}_GROUP dev)
endforeach()
set(CPACK_COMPONENT_SHLIB_GROUP shlib)
set(CPACK_COMPONENT_TOOLS_GROUP tools)
set(CPACK_COMPONENT_PYTHON_GROUP python)
set(CPACK_COMPONENT_EVENTS_GROUP events)
set(_groups shlib dev tools python events)
if(NOT PMUCAT_PYTHON)
  list(REMOVE_ITEM _groups python)
endif()
set(CPACK_COMPONENTS_ALL shlib tools events ${_dev_components})
if(PMUCAT_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python)
endif()

# Package names, sections and descriptions (synopsis, then the extended description, whose first
# paragraph every library package shares).
set(_deb_intro "pmucat reads the Linux perf_event PMU event catalog under
/sys/bus/event_source/devices and the vendor event tables perf builds in,
and encodes perf event specs into perf_event_attr values bit for bit as
perf does, and back.
")
set(CPACK_DEBIAN_SHLIB_PACKAGE_NAME libpmucat0.1)
set(CPACK_DEBIAN_SHLIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_SHLIB_DESCRIPTION "Linux sysfs PMU event catalog library (shared library)
${_deb_intro}
This package holds libpmucat.so.0.1: the stable C API (pmucat_c.h) and the
C++ library (core, check and perf.data modules) in one shared object.")
# The shlibs file (only libpmucat0.1 has a library with a SONAME). CPack also writes postinst and
# postrm scripts calling ldconfig; cmake/PmucatDebLdconfig.cmake replaces them by the ldconfig
# trigger Debian uses now.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")
set(CPACK_POST_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/PmucatDebLdconfig.cmake)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libpmucat-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(_dev_depends "libpmucat0.1 (= ${_deb_version}), libfmt-dev")
if(PMUCAT_BUILD_PROTO)
  string(APPEND _dev_depends ", libprotobuf-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_dev_depends}")
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_DEV_DESCRIPTION "Linux sysfs PMU event catalog library (development files)
${_deb_intro}
This package holds the headers, the static archives of each component
(core, check, perfdata, proto, c), the CMake package (find_package(pmucat))
and the pkg-config modules.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME pmucat)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "pmucat-events (= ${_deb_version})")
set(CPACK_DEBIAN_TOOLS_PACKAGE_SUGGESTS "linux-perf")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "Linux sysfs PMU event catalog tools
pmucat reads the Linux perf_event PMU event catalog under
/sys/bus/event_source/devices and the vendor event tables perf builds in.

The tools: pmuls lists PMUs, formats, events and metrics; pmuencode turns
perf event specs into perf_event_attr values and back; pmucheck validates
a tree for kernel CI (KTAP, JSON, JUnit, KCIDB); pmudiff compares two trees;
pmusnap captures one; pmumetric evaluates vendor metrics from perf stat
counts; pmudata reads, writes and converts perf.data files.")

set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-pmucat)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
    "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), python3 (<< ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}.999)")
set(CPACK_DEBIAN_PYTHON_DESCRIPTION "Linux sysfs PMU event catalog (Python 3 module)
${_deb_intro}
This package holds the Python 3 module pmucat.")

set(CPACK_DEBIAN_EVENTS_PACKAGE_NAME pmucat-events)
set(CPACK_DEBIAN_EVENTS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_EVENTS_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_EVENTS_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_EVENTS_DESCRIPTION "Linux perf vendor event tables, compiled for pmucat
The vendor event and metric tables of the Linux kernel's
tools/perf/pmu-events (linux ${PMUCAT_EVENTS_VERSION}'s and older releases'), compiled into
pmucat's little-endian index format, one file per CPU model, read by the
pmucat tools and library to resolve names such as inst_retired.any.")

include(CPack)
foreach(group IN LISTS _groups)
  cpack_add_component_group(${group})
endforeach()
