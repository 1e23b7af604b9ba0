# Where 'cmake --install' puts the plugin. GDAL searches GDAL_DRIVER_PATH, else
# its built-in plugin directory <libdir>/gdalplugins; when that directory has a
# <major>.<minor> subdirectory, GDAL searches only the subdirectory. So: the
# subdirectory when it exists, the plugin directory itself otherwise.
if(NOT VSGPU_PLUGIN_INSTALL_DIR)
  get_target_property(_gdal_loc GDAL::GDAL LOCATION)
  if(_gdal_loc)
    get_filename_component(_gdal_libdir "${_gdal_loc}" DIRECTORY)
  else()
    set(_gdal_libdir "${CMAKE_INSTALL_FULL_LIBDIR}")
  endif()
  set(_plugindir "${_gdal_libdir}/gdalplugins")
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" _gdal_mm "${GDAL_VERSION}")
  if(IS_DIRECTORY "${_plugindir}/${_gdal_mm}")
    set(_plugindir "${_plugindir}/${_gdal_mm}")
  endif()
  set(VSGPU_PLUGIN_INSTALL_DIR "${_plugindir}")
endif()
install(TARGETS ogr_VSGPU LIBRARY DESTINATION "${VSGPU_PLUGIN_INSTALL_DIR}")
message(STATUS "VSGPU: plugin installs into ${VSGPU_PLUGIN_INSTALL_DIR}")
