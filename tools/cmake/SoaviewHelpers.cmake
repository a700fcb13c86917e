# CMake helpers for projects using soaview (included by soaview's own build
# and by soaviewConfig.cmake of a build tree).
#
#   soaview_convert(<target>)  compile <target>'s sources with the soaview
#                              plugin and link the soaview runtime
#   soaview_cuda_sources(<target> <source>... [FLAGS <flag>...])
#                              translate annotated C++ sources with
#                              `soaview-translate --backend=cuda` and compile
#                              the CUDA output into <target> with nvcc
#
# Needs SOAVIEW_PLUGIN (path of soaview.so), SOAVIEW_TRANSLATE and the
# imported or built target soaview_rt. soaview_convert needs clang++ 19 as
# the C++ compiler; soaview_cuda_sources a project with the CUDA language
# enabled (CMAKE_CUDA_COMPILER = nvcc).

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

# The translation runs at build time with the target's include directories
# and definitions plus FLAGS (say -DMY_MACRO for code the CUDA build needs);
# the .cu files go to <build dir>/soaview_cuda/, re-translated when the
# source or any header it includes changes (a depfile). Translation errors (loops
# soaview refuses) fail the build with clang-style diagnostics.
function(soaview_cuda_sources target)
  cmake_parse_arguments(SV "" "" "FLAGS" ${ARGN})
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  foreach(src ${SV_UNPARSED_ARGUMENTS})
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME_WE)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/soaview_cuda/${target}_${name}.cu")
    add_custom_command(OUTPUT "${out}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/soaview_cuda"
      COMMAND "${SOAVIEW_TRANSLATE}" --backend=cuda "${abs}" -o "${out}"
              --depfile "${out}.d" --
              -std=c++17 "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>" ${SV_FLAGS}
      DEPENDS "${abs}" "${SOAVIEW_TRANSLATE}"
      DEPFILE "${out}.d"
      COMMENT "soaview: translating ${src} to CUDA"
      COMMAND_EXPAND_LISTS VERBATIM)
    target_sources(${target} PRIVATE "${out}")
  endforeach()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr>)
  target_include_directories(${target} PRIVATE
    $<TARGET_PROPERTY:soaview_rt,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(${target} PRIVATE soaview_rt)
endfunction()
