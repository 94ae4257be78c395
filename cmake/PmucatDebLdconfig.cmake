# CPack post-build script (CPACK_POST_BUILD_SCRIPTS of cmake/PmucatPackage.cmake): in the package
# that holds the shared library, CPack's postinst and postrm run ldconfig themselves; Debian now
# declares the ldconfig trigger instead (lintian: maintscript-calls-ldconfig,
# lacks-ldconfig-trigger). The package is unpacked, its scripts replaced by the trigger, and
# built again with the same contents (dpkg-deb --root-owner-group: every file owned by root).
foreach(deb IN LISTS CPACK_PACKAGE_FILES)
  get_filename_component(name ${deb} NAME)
  if(NOT name MATCHES "^libpmucat[0-9.]+_")
    continue()
  endif()
  set(tree ${deb}.tree)
  file(REMOVE_RECURSE ${tree})
  execute_process(COMMAND dpkg-deb -R ${deb} ${tree} COMMAND_ERROR_IS_FATAL ANY)
  file(REMOVE ${tree}/DEBIAN/postinst ${tree}/DEBIAN/postrm)
  file(WRITE ${tree}/DEBIAN/triggers "activate-noawait ldconfig\n")
  execute_process(COMMAND dpkg-deb --root-owner-group -Zxz --build ${tree} ${deb}
                  OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
  file(REMOVE_RECURSE ${tree})
endforeach()
