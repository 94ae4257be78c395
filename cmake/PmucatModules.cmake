# Each library module (src/<module>/) is an OBJECT library `pmucat_<module>`. The installed
# library is cut into components (pmucat_component(), the table in src/CMakeLists.txt), each an
# archive made of its modules' objects. Tests and tools link only the modules they exercise
# (pmucat_link_modules), so one module can be built and tested on its own.

# The tools are static executables (PMUCAT_STATIC_RUNTIME, GCC, no sanitizer): see cli/CMakeLists.txt.
set(PMUCAT_STATIC_TOOLS OFF)
if(PMUCAT_BUILD_TOOLS AND PMUCAT_STATIC_RUNTIME AND NOT PMUCAT_SANITIZE
   AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(PMUCAT_STATIC_TOOLS ON)
endif()
# A static link must not see libfmt.so, and Debian ships no libfmt.a: in a build with static tools
# every object is compiled with fmt header-only (fmt's fmt::fmt-header-only, FMT_HEADER_ONLY), the
# way fmt supports carrying its compiled part without the library, the same in every object so
# that none refers to a symbol only libfmt.so defines. Other builds (the Debian packages, the
# sanitizer build) link fmt::fmt. The installed library declares fmt either way.
if(PMUCAT_STATIC_TOOLS)
  set(PMUCAT_FMT fmt::fmt-header-only)
else()
  set(PMUCAT_FMT fmt::fmt)
endif()
# Objects a static tool links get one section per function and per data object, so that its link
# (--gc-sections, cli/CMakeLists.txt) drops the library code no tool reaches: a smaller binary
# whose hot code shares fewer pages with code that never runs.
set(PMUCAT_LAYOUT_COMPILE_OPTIONS "")
if(PMUCAT_STATIC_TOOLS)
  set(PMUCAT_LAYOUT_COMPILE_OPTIONS -ffunction-sections -fdata-sections)
endif()
# zstd: the fully static tools (the property PMUCAT_STATIC_TOOL) link libzstd.a, everything else
# libzstd.so.
set(PMUCAT_ZSTD "$<IF:$<BOOL:$<TARGET_PROPERTY:PMUCAT_STATIC_TOOL>>,zstd::libzstd_static,zstd::libzstd_shared>")

# pmucat_module(<name> [HEADERS <public headers...>] SOURCES <files...> [MODULES <modules it
#               uses...>] [LIBS <external libs...>])
# HEADERS: the public headers the module owns, relative to include/pmucat/; they are installed
# with the module's component. Every header in include/pmucat/ has exactly one owner.
function(pmucat_module name)
  cmake_parse_arguments(M "" "" "HEADERS;SOURCES;MODULES;LIBS" ${ARGN})
  foreach(header IN LISTS M_HEADERS)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/include/pmucat/${header})
      message(FATAL_ERROR "pmucat_module(${name}): HEADERS names ${header}, which is not in "
                          "include/pmucat/")
    endif()
    get_property(owner GLOBAL PROPERTY PMUCAT_HEADER_OWNER_${header})
    if(owner)
      message(FATAL_ERROR "include/pmucat/${header} is in the HEADERS of both ${owner} and ${name}")
    endif()
    set_property(GLOBAL PROPERTY PMUCAT_HEADER_OWNER_${header} ${name})
  endforeach()
  set_property(GLOBAL PROPERTY PMUCAT_MODULE_HEADERS_${name} ${M_HEADERS})
  set_property(GLOBAL PROPERTY PMUCAT_MODULE_LIBS_${name} ${M_LIBS})
  list(TRANSFORM M_LIBS REPLACE "^fmt::fmt$" "${PMUCAT_FMT}")
  list(TRANSFORM M_LIBS REPLACE "^zstd::libzstd_shared$" "${PMUCAT_ZSTD}")
  set(target pmucat_${name})
  add_library(${target} OBJECT ${M_SOURCES})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE ${PMUCAT_LAYOUT_COMPILE_OPTIONS})
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    PRIVATE ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_BINARY_DIR})
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:pmucat_warnings> PUBLIC ${M_LIBS})
  foreach(dep IN LISTS M_MODULES)
    target_link_libraries(${target} PUBLIC pmucat_${dep})
  endforeach()
  set_property(GLOBAL PROPERTY PMUCAT_MODULE_DEPS_${name} ${M_MODULES})
  set_property(GLOBAL APPEND PROPERTY PMUCAT_MODULES ${name})
endfunction()

function(_pmucat_collect_modules out)
  set(result "")
  set(queue ${ARGN})
  while(queue)
    list(POP_FRONT queue m)
    if(NOT m IN_LIST result)
      list(APPEND result ${m})
      get_property(deps GLOBAL PROPERTY PMUCAT_MODULE_DEPS_${m})
      list(APPEND queue ${deps})
    endif()
  endwhile()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# pmucat_link_modules(<target> <module...>): links the object files of the modules and of every
# module they use (object libraries do not carry their dependencies' objects along).
function(pmucat_link_modules target)
  _pmucat_collect_modules(all ${ARGN})
  foreach(m IN LISTS all)
    target_link_libraries(${target} PRIVATE pmucat_${m})
  endforeach()
endfunction()

# pmucat_test(<name> SOURCES <files...> [MODULES <modules...>] [LIBS <libs...>]
#             [NEEDS <targets it runs...>])
# A googletest executable registered with CTest, run from the source tree's root so tests can
# use fixtures/ paths; PMUCAT_SOURCE_DIR is defined for them too. NEEDS names the tools the test
# runs (built first). A test whose modules, libraries or tools this build leaves out
# (PMUCAT_BUILD_TOOLS=OFF, PMUCAT_BUILD_PROTO=OFF) is skipped with a message.
function(pmucat_test name)
  cmake_parse_arguments(T "" "" "SOURCES;MODULES;LIBS;NEEDS" ${ARGN})
  set(missing "")
  foreach(needed IN LISTS T_MODULES)
    if(NOT TARGET pmucat_${needed})
      list(APPEND missing "module ${needed}")
    endif()
  endforeach()
  foreach(needed IN LISTS T_LIBS T_NEEDS)
    if(NOT TARGET ${needed})
      list(APPEND missing ${needed})
    endif()
  endforeach()
  if(missing)
    if(PMUCAT_BUILD_TOOLS AND PMUCAT_BUILD_PROTO)
      message(FATAL_ERROR "pmucat_test(${name}): no target ${missing}")
    endif()
    list(JOIN missing ", " missing)
    message(STATUS "test ${name} skipped: this build has no ${missing} "
                   "(PMUCAT_BUILD_TOOLS=${PMUCAT_BUILD_TOOLS}, PMUCAT_BUILD_PROTO=${PMUCAT_BUILD_PROTO})")
    return()
  endif()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE pmucat_test_warnings GTest::gtest GTest::gtest_main GTest::gmock
                        rapidcheck rapidcheck_gtest pmucat_test_support ${T_LIBS})
  pmucat_link_modules(${name} ${T_MODULES})
  if(T_NEEDS)
    add_dependencies(${name} ${T_NEEDS})
  endif()
  target_compile_definitions(${name} PRIVATE PMUCAT_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                             PMUCAT_BINARY_DIR="${PROJECT_BINARY_DIR}")
  include(GoogleTest)
  # One variable only: gtest_discover_tests flattens a list of them and set_tests_properties
  # would read the second as a property name.
  # The label is the test's folder (tests/<dir>), so `ctest -L`/`-LE` picks areas: the Debian 13
  # CI step runs everything but the differential tests (`-LE differential`).
  get_filename_component(area "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  gtest_discover_tests(${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} DISCOVERY_TIMEOUT 60
                       PROPERTIES ENVIRONMENT
                       "XDG_CACHE_HOME=${PROJECT_BINARY_DIR}/test-cache" LABELS "${area}")
endfunction()
