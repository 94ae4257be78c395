# Installed components (the table is in src/CMakeLists.txt): one archive, CMake target, header
# set, export file and pkg-config file per component, built from the modules' objects. A
# consumer asks only for what it uses: find_package(pmucat COMPONENTS core) needs fmt alone.

# pmucat_external(<imported target> PACKAGE <CMake package> PKG_CONFIG <pkg-config module>)
# pmucat_external(<imported target> HEADER_ONLY)
function(pmucat_external target)
  cmake_parse_arguments(E "HEADER_ONLY" "PACKAGE;PKG_CONFIG" "" ${ARGN})
  string(MAKE_C_IDENTIFIER "${target}" key)
  if(E_HEADER_ONLY)
    set_property(GLOBAL PROPERTY PMUCAT_EXTERNAL_${key} HEADER_ONLY)
  else()
    set_property(GLOBAL PROPERTY PMUCAT_EXTERNAL_${key} ${E_PACKAGE} ${E_PKG_CONFIG})
  endif()
endfunction()

# pmucat_component(<name> MODULES <modules...> [HEADERS <headers of the component itself...>])
function(pmucat_component name)
  cmake_parse_arguments(C "" "" "MODULES;HEADERS" ${ARGN})
  foreach(module IN LISTS C_MODULES)
    if(NOT TARGET pmucat_${module})
      message(FATAL_ERROR "pmucat_component(${name}): no module ${module}")
    endif()
    get_property(owner GLOBAL PROPERTY PMUCAT_COMPONENT_OF_${module})
    if(owner)
      message(FATAL_ERROR "module ${module} is in both components ${owner} and ${name}")
    endif()
    set_property(GLOBAL PROPERTY PMUCAT_COMPONENT_OF_${module} ${name})
  endforeach()
  foreach(header IN LISTS C_HEADERS)
    get_property(owner GLOBAL PROPERTY PMUCAT_HEADER_OWNER_${header})
    if(owner OR NOT EXISTS ${PROJECT_SOURCE_DIR}/include/pmucat/${header})
      message(FATAL_ERROR "pmucat_component(${name}): header ${header} missing or owned by ${owner}")
    endif()
    set_property(GLOBAL PROPERTY PMUCAT_HEADER_OWNER_${header} "component ${name}")
  endforeach()
  set_property(GLOBAL PROPERTY PMUCAT_COMPONENT_MODULES_${name} ${C_MODULES})
  set_property(GLOBAL PROPERTY PMUCAT_COMPONENT_HEADERS_${name} ${C_HEADERS})
  set_property(GLOBAL APPEND PROPERTY PMUCAT_COMPONENTS ${name})
endfunction()

# Every public header of a component: its own and those of its modules.
function(_pmucat_component_headers component out)
  get_property(headers GLOBAL PROPERTY PMUCAT_COMPONENT_HEADERS_${component})
  get_property(modules GLOBAL PROPERTY PMUCAT_COMPONENT_MODULES_${component})
  foreach(module IN LISTS modules)
    get_property(module_headers GLOBAL PROPERTY PMUCAT_MODULE_HEADERS_${module})
    list(APPEND headers ${module_headers})
  endforeach()
  set(${out} ${headers} PARENT_SCOPE)
endfunction()

# Fails the configure when the table and the tree disagree: a module in no component, a public
# header nobody owns, or an umbrella header that does not include exactly its component.
function(_pmucat_check_components)
  get_property(modules GLOBAL PROPERTY PMUCAT_MODULES)
  foreach(module IN LISTS modules)
    get_property(owner GLOBAL PROPERTY PMUCAT_COMPONENT_OF_${module})
    if(NOT owner)
      message(FATAL_ERROR "module ${module} is in no installed component: add it to the "
                          "pmucat_component() table in src/CMakeLists.txt")
    endif()
  endforeach()
  file(GLOB headers RELATIVE ${PROJECT_SOURCE_DIR}/include/pmucat
       ${PROJECT_SOURCE_DIR}/include/pmucat/*.h)
  foreach(header IN LISTS headers)
    get_property(owner GLOBAL PROPERTY PMUCAT_HEADER_OWNER_${header})
    if(NOT owner)
      # A header of a module this build leaves out (PMUCAT_BUILD_PROTO=OFF) has no owner either.
      if(NOT PMUCAT_BUILD_PROTO)
        continue()
      endif()
      message(FATAL_ERROR "include/pmucat/${header} belongs to no module: name it in the HEADERS "
                          "of the pmucat_module() that defines it")
    endif()
  endforeach()
  # pmucat.h is the core component's umbrella: all of core, nothing else.
  _pmucat_component_headers(core expected)
  list(REMOVE_ITEM expected pmucat.h)
  list(FILTER expected INCLUDE REGEX "\\.h$")  # not the .def tables the headers include
  file(STRINGS ${PROJECT_SOURCE_DIR}/include/pmucat/pmucat.h lines REGEX "^#include \"pmucat/")
  list(TRANSFORM lines REPLACE "^#include \"pmucat/([^\"]+)\".*" "\\1")
  list(SORT expected)
  list(SORT lines)
  if(NOT expected STREQUAL lines)
    message(FATAL_ERROR "include/pmucat/pmucat.h must include exactly the core component's "
                        "headers: ${expected}")
  endif()
endfunction()

# pmucat_install_components(): the archives, their targets, headers, package config, pkg-config
# files and install rules, from the pmucat_component() table.
function(pmucat_install_components)
  _pmucat_check_components()
  set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/pmucat)
  file(RELATIVE_PATH PMUCAT_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" PMUCAT_PC_TO_PREFIX "${PMUCAT_PC_TO_PREFIX}")
  get_property(components GLOBAL PROPERTY PMUCAT_COMPONENTS)
  set(table "")
  set(done "")
  set(all_targets "")
  foreach(component IN LISTS components)
    set(lib pmucat_lib_${component})
    add_library(${lib} STATIC)
    add_library(pmucat::${component} ALIAS ${lib})
    set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON
                          EXPORT_NAME ${component} OUTPUT_NAME pmucat-${component})
    target_include_directories(${lib} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                               $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_compile_features(${lib} PUBLIC cxx_std_20)
    set(uses "")
    set(externals "")
    set(packages "")
    set(pc_packages "")
    get_property(modules GLOBAL PROPERTY PMUCAT_COMPONENT_MODULES_${component})
    foreach(module IN LISTS modules)
      target_sources(${lib} PRIVATE $<TARGET_OBJECTS:pmucat_${module}>)
      get_property(deps GLOBAL PROPERTY PMUCAT_MODULE_DEPS_${module})
      foreach(dep IN LISTS deps)
        get_property(dep_component GLOBAL PROPERTY PMUCAT_COMPONENT_OF_${dep})
        if(dep_component STREQUAL component OR dep_component IN_LIST uses)
          continue()
        endif()
        if(NOT dep_component IN_LIST done)
          message(FATAL_ERROR "component ${component} uses ${dep_component} (module ${module} -> "
                              "${dep}): declare ${dep_component} first in src/CMakeLists.txt")
        endif()
        list(APPEND uses ${dep_component})
        target_link_libraries(${lib} PUBLIC pmucat_lib_${dep_component})
      endforeach()
      get_property(libs GLOBAL PROPERTY PMUCAT_MODULE_LIBS_${module})
      foreach(external IN LISTS libs)
        string(MAKE_C_IDENTIFIER "${external}" key)
        get_property(info GLOBAL PROPERTY PMUCAT_EXTERNAL_${key})
        if(NOT info)
          message(FATAL_ERROR "module ${module} links ${external}: say what it asks of a consumer "
                              "with pmucat_external() in src/CMakeLists.txt")
        elseif(NOT info STREQUAL "HEADER_ONLY" AND NOT external IN_LIST externals)
          # (The modules compiled the objects; a header-only library has nothing left to link.)
          list(GET info 0 package)
          list(GET info 1 pc_package)
          list(APPEND externals ${external})
          list(APPEND packages ${package})
          list(APPEND pc_packages ${pc_package})
        endif()
      endforeach()
    endforeach()
    target_link_libraries(${lib} PRIVATE ${externals})
    list(REMOVE_DUPLICATES packages)
    list(REMOVE_DUPLICATES pc_packages)
    string(APPEND table "set(_pmucat_uses_${component} \"${uses}\")\n"
                        "set(_pmucat_packages_${component} \"${packages}\")\n")

    _pmucat_component_headers(${component} headers)
    list(TRANSFORM headers PREPEND ${PROJECT_SOURCE_DIR}/include/pmucat/)
    install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pmucat COMPONENT ${component})
    install(TARGETS ${lib} EXPORT pmucat-${component}-targets
            ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ${component}
            INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
    install(EXPORT pmucat-${component}-targets NAMESPACE pmucat:: DESTINATION ${cmake_dir}
            COMPONENT ${component})

    set(PMUCAT_PC_NAME pmucat-${component})
    set(PMUCAT_PC_DESCRIPTION "${PROJECT_DESCRIPTION}: the ${component} component")
    list(TRANSFORM uses PREPEND pmucat- OUTPUT_VARIABLE pc_uses)
    list(APPEND pc_uses ${pc_packages})
    list(JOIN pc_uses " " PMUCAT_PC_REQUIRES)
    set(PMUCAT_PC_LIBS "-lpmucat-${component}")
    configure_file(${PROJECT_SOURCE_DIR}/cmake/pmucat.pc.in
                   ${PROJECT_BINARY_DIR}/pmucat-${component}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/pmucat-${component}.pc
            DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT ${component})

    list(APPEND done ${component})
    list(APPEND all_targets ${lib})
  endforeach()

  # pmucat::pmucat: every component, for consumers that want the whole library.
  add_library(pmucat INTERFACE)
  add_library(pmucat::pmucat ALIAS pmucat)
  target_link_libraries(pmucat INTERFACE ${all_targets})

  # The package config, its version file, pkg-config's `pmucat` and the licence go with core,
  # which every other component needs.
  set(PMUCAT_CONFIG_COMPONENTS "${components}")
  set(PMUCAT_CONFIG_TABLE "${table}")
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pmucatConfig.cmake.in
    ${PROJECT_BINARY_DIR}/pmucatConfig.cmake INSTALL_DESTINATION ${cmake_dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/pmucatConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/pmucatConfig.cmake
                ${PROJECT_BINARY_DIR}/pmucatConfigVersion.cmake
          DESTINATION ${cmake_dir} COMPONENT core)
  set(PMUCAT_PC_NAME pmucat)
  set(PMUCAT_PC_DESCRIPTION "${PROJECT_DESCRIPTION} (every component)")
  list(TRANSFORM components PREPEND pmucat- OUTPUT_VARIABLE pc_uses)
  list(JOIN pc_uses " " PMUCAT_PC_REQUIRES)
  set(PMUCAT_PC_LIBS "")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/pmucat.pc.in ${PROJECT_BINARY_DIR}/pmucat.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pmucat.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT core)
  # A Debian package carries its own copyright file instead (cmake/PmucatPackage.cmake).
  if(NOT PMUCAT_PACKAGE_DEB)
    install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
            DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT core)
  endif()
endfunction()
