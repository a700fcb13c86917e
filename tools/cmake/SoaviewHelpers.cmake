# CMake helpers for projects using soaview (included by soaview's own build
# and by soaviewConfig.cmake of a build tree).
#
#   soaview_convert(<target>)  compile <target>'s sources with the soaview
#                              plugin and link the soaview runtime
#
# Needs SOAVIEW_PLUGIN (path of soaview.so) and the imported or built target
# soaview_rt. The compiler must be clang++ 19.

function(soaview_convert target)
  target_compile_options(${target} PRIVATE "-fplugin=${SOAVIEW_PLUGIN}")
  if(TARGET soaview)
    add_dependencies(${target} soaview)
  endif()
  # Recompile when the plugin changes.
  get_target_property(srcs ${target} SOURCES)
  set_property(SOURCE ${srcs} APPEND PROPERTY OBJECT_DEPENDS "${SOAVIEW_PLUGIN}")
  # A compiler cache does not see the plugin change: compile directly.
  set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "")
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "OBJECT_LIBRARY")
    target_include_directories(${target} SYSTEM PRIVATE
      $<TARGET_PROPERTY:soaview_rt,INTERFACE_INCLUDE_DIRECTORIES>)
  else()
    target_link_libraries(${target} PRIVATE soaview_rt)
  endif()
endfunction()
