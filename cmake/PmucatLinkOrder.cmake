# The static tools' code laid out in the order their everyday command lines run it
# (cli/link-order.txt, written by scripts/link-order.py): a run then touches a few dozen pages of
# a 5 MB text instead of most of them, each touched 64 KiB window being a page fault that maps 16
# pages (docs/performance.md, "One event against a static C floor"). A function the list does not
# name keeps lld's default place: a stale list costs speed, never correctness.
#
# Active for the static GCC tools (PMUCAT_STATIC_RUNTIME, no sanitizer) when lld is installed
# (Debian's lld): their objects get one section per function (-ffunction-sections
# -fdata-sections), and pmucat_link_in_order(<tool>) links with lld, the order file and
# --gc-sections. Elsewhere both are no-ops.
option(PMUCAT_LINK_ORDER "Link the static tools with lld in the order of cli/link-order.txt" ON)
set(PMUCAT_LINK_ORDER_FILE ${PROJECT_SOURCE_DIR}/cli/link-order.txt)
set(PMUCAT_LINK_ORDER_ACTIVE OFF)
if(PMUCAT_LINK_ORDER AND PMUCAT_BUILD_TOOLS AND PMUCAT_STATIC_RUNTIME AND NOT PMUCAT_SANITIZE
   AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" PMUCAT_HAVE_LLD)
  if(PMUCAT_HAVE_LLD)
    set(PMUCAT_LINK_ORDER_ACTIVE ON)
  else()
    message(STATUS "PMUCAT_LINK_ORDER: no lld (Debian package lld); the tools keep the default "
                   "layout")
  endif()
endif()
# Compile options of every object a static tool links: the library modules and cli/.
set(PMUCAT_LAYOUT_COMPILE_OPTIONS "")
if(PMUCAT_LINK_ORDER_ACTIVE)
  set(PMUCAT_LAYOUT_COMPILE_OPTIONS -ffunction-sections -fdata-sections)
endif()

function(pmucat_link_in_order target)
  if(PMUCAT_LINK_ORDER_ACTIVE)
    target_link_options(${target} PRIVATE -fuse-ld=lld LINKER:--gc-sections LINKER:--build-id
                        LINKER:--symbol-ordering-file=${PMUCAT_LINK_ORDER_FILE}
                        LINKER:--no-warn-symbol-ordering)
    # The start-up prefault of the code and data that order groups (cli/common/prefault.h): it
    # needs the layout's two markers, so only link-ordered tools get it.
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cli/common/prefault_entry.cpp)
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${PMUCAT_LINK_ORDER_FILE})
  endif()
endfunction()
