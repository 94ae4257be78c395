# libpmucat.so: the objects of the given components' modules in one shared library, for the C API
# (pmucat/pmucat_c.h) and for C++ users who want a shared library. Its SONAME is
# libpmucat.so.<major>.<minor> (PMUCAT_SOVERSION: the ABI may change with a minor version before
# 1.0), and its C++ symbols lie in the inline namespace pmucat::v<major>_<minor>
# (PMUCAT_ABI_NAMESPACE). The linker version script src/c_api/libpmucat.map exports the pmucat_*
# C functions and namespace pmucat only; fmt is linked privately and nothing of it, nlohmann_json
# or the standard library is exported. The static archives and the static tools do not use it.

# pmucat_shared_library(COMPONENTS <components...>)
function(pmucat_shared_library)
  cmake_parse_arguments(S "" "" "COMPONENTS" ${ARGN})
  add_library(pmucat_shared SHARED)
  add_library(pmucat::shared ALIAS pmucat_shared)
  set(map ${PROJECT_SOURCE_DIR}/src/c_api/libpmucat.map)
  set_target_properties(pmucat_shared PROPERTIES
    OUTPUT_NAME pmucat
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PMUCAT_SOVERSION}
    LINK_DEPENDS ${map}
    EXPORT_NAME shared)
  target_link_options(pmucat_shared PRIVATE "LINKER:--version-script=${map}" "LINKER:--as-needed")
  target_include_directories(pmucat_shared PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set(externals "")
  foreach(component IN LISTS S_COMPONENTS)
    get_property(modules GLOBAL PROPERTY PMUCAT_COMPONENT_MODULES_${component})
    foreach(module IN LISTS modules)
      target_sources(pmucat_shared PRIVATE $<TARGET_OBJECTS:pmucat_${module}>)
      get_property(libs GLOBAL PROPERTY PMUCAT_MODULE_LIBS_${module})
      foreach(external IN LISTS libs)
        string(MAKE_C_IDENTIFIER "${external}" key)
        get_property(info GLOBAL PROPERTY PMUCAT_EXTERNAL_${key})
        if(NOT info STREQUAL "HEADER_ONLY")
          list(APPEND externals ${external})
        endif()
      endforeach()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES externals)
  target_link_libraries(pmucat_shared PRIVATE ${externals})
  install(TARGETS pmucat_shared
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT shlib NAMELINK_COMPONENT c)
endfunction()
