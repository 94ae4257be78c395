# Each library module (src/<module>/) is an OBJECT library `pmucat_<module>`; the installed
# `pmucat` library is made of all of them. Tests and tools link only the modules they exercise
# (pmucat_link_modules), so one module can be built and tested on its own.

# fmt as a link dependency, except for a target that carries fmt's compiled part itself and sets
# the property PMUCAT_FMT_BUILT_IN: the tools, which PMUCAT_STATIC_RUNTIME links fully static (a
# static link must not see libfmt.so, and Debian ships no libfmt.a). Everything else, and every
# consumer of the installed library, gets fmt::fmt.
set(PMUCAT_FMT "$<$<NOT:$<BOOL:$<TARGET_PROPERTY:PMUCAT_FMT_BUILT_IN>>>:fmt::fmt>")

# pmucat_module(<name> SOURCES <files...> [MODULES <modules it uses...>] [LIBS <external libs...>])
function(pmucat_module name)
  cmake_parse_arguments(M "" "" "SOURCES;MODULES;LIBS" ${ARGN})
  list(TRANSFORM M_LIBS REPLACE "^fmt::fmt$" "${PMUCAT_FMT}")
  set(target pmucat_${name})
  add_library(${target} OBJECT ${M_SOURCES})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
           $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
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

# pmucat_test(<name> SOURCES <files...> MODULES <modules...> [LIBS <libs...>])
# A googletest executable registered with CTest, run from the source tree's root so tests can
# use fixtures/ paths; PMUCAT_SOURCE_DIR is defined for them too.
function(pmucat_test name)
  cmake_parse_arguments(T "" "" "SOURCES;MODULES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE pmucat_warnings GTest::gtest GTest::gtest_main GTest::gmock
                        rapidcheck rapidcheck_gtest pmucat_test_support ${T_LIBS})
  pmucat_link_modules(${name} ${T_MODULES})
  target_compile_definitions(${name} PRIVATE PMUCAT_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                             PMUCAT_BINARY_DIR="${PROJECT_BINARY_DIR}")
  include(GoogleTest)
  gtest_discover_tests(${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} DISCOVERY_TIMEOUT 60
                       PROPERTIES ENVIRONMENT "PMUCAT_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
