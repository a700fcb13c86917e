# CMake helpers for projects using soaview (included by soaview's own build
# and by soaviewConfig.cmake, of a build tree or an installed tree).
#
#   soaview_convert(<target>)  compile <target>'s sources with the soaview
#                              plugin and link the soaview runtime
#   soaview_cuda_sources(<target> <source>... [FLAGS <flag>...])
#                              translate annotated C++ sources with
#                              `soaview-translate --backend=cuda` and compile
#                              the CUDA output into <target> with nvcc
#
# Needs SOAVIEW_PLUGIN (path of soaview.so), SOAVIEW_TRANSLATE and the
# imported or built target soaview::runtime. soaview_convert needs clang++ of
# the plugin's LLVM major (SOAVIEW_LLVM_VERSION) as the C++ compiler;
# soaview_cuda_sources a project with the CUDA language enabled
# (CMAKE_CUDA_COMPILER = nvcc) or nvcc found by soaview-config.

# What a build step that runs soaview-translate depends on: the target where
# soaview is built in the same project (a target-level dependency, which
# every CMake generator orders), the installed program otherwise.
function(soaview_translate_dependency var)
  if(TARGET soaview-translate)
    set(${var} soaview-translate PARENT_SCOPE)
  else()
    set(${var} "${SOAVIEW_TRANSLATE}" PARENT_SCOPE)
  endif()
endfunction()

# The runtime's headers: the code soaview generates includes them.
function(soaview_runtime_headers var)
  get_target_property(dirs soaview::runtime INTERFACE_INCLUDE_DIRECTORIES)
  set(headers)
  foreach(dir IN LISTS dirs)
    string(REGEX REPLACE "^\\$<BUILD_INTERFACE:(.*)>$" "\\1" dir "${dir}")
    if(IS_ABSOLUTE "${dir}" AND EXISTS "${dir}/soaview")
      file(GLOB found "${dir}/soaview/*.h")
      list(APPEND headers ${found})
    endif()
  endforeach()
  list(SORT headers)
  set(${var} ${headers} PARENT_SCOPE)
endfunction()

# The target's compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) stays. ccache
# hashes the plugin named by -fplugin=, but not the runtime headers that the
# generated code includes, which the source it hashes does not name: they
# are given to it as extra files to hash (CCACHE_EXTRAFILES), so that a new
# runtime recompiles. Other launchers run as they are (docs/install.md).
function(soaview_keep_launcher target)
  get_target_property(launcher ${target} CXX_COMPILER_LAUNCHER)
  if(NOT launcher)
    return()
  endif()
  list(GET launcher 0 program)
  get_filename_component(name "${program}" NAME)
  if(NOT name MATCHES "^ccache")
    return()
  endif()
  soaview_runtime_headers(headers)
  list(JOIN headers ":" extra)
  set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER
    "${CMAKE_COMMAND};-E;env;CCACHE_EXTRAFILES=${extra};${launcher}")
endfunction()

function(soaview_convert target)
  # A plugin loads only into the Clang it was built against.
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR
     NOT CMAKE_CXX_COMPILER_VERSION MATCHES "^${SOAVIEW_LLVM_VERSION}\\.")
    message(FATAL_ERROR "soaview_convert(${target}): the soaview plugin was built "
      "for Clang ${SOAVIEW_LLVM_VERSION}, but the C++ compiler is "
      "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}; configure with "
      "-DCMAKE_CXX_COMPILER=${SOAVIEW_CLANGXX}")
  endif()
  target_compile_options(${target} PRIVATE "-fplugin=${SOAVIEW_PLUGIN}")
  if(TARGET soaview)
    # Built in the same project: the plugin must be linked before the first
    # compile. A target-level dependency does not give that (Ninja starts
    # compiling a target's objects before its dependencies link), a stamp
    # that the target's sources wait for does, with every generator.
    set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${target}.soaview-plugin.stamp")
    add_custom_command(OUTPUT "${stamp}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS soaview VERBATIM)
    target_sources(${target} PRIVATE "${stamp}")
  endif()
  # Recompile when the plugin changes: the compiler names the plugin in the
  # object's dependency file, like a header (a per-target flag; a source
  # property would reach every target that compiles the same file).
  target_compile_options(${target} PRIVATE
    "SHELL:-Xclang -fdepfile-entry=${SOAVIEW_PLUGIN}")
  soaview_keep_launcher(${target})
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "OBJECT_LIBRARY")
    target_include_directories(${target} SYSTEM PRIVATE
      $<TARGET_PROPERTY:soaview::runtime,INTERFACE_INCLUDE_DIRECTORIES>)
  else()
    target_link_libraries(${target} PRIVATE soaview::runtime)
  endif()
endfunction()

# The translation runs at build time with the target's include directories
# and definitions plus FLAGS (say -DMY_MACRO for code the CUDA build needs);
# each source's .cu file and the headers soaview rewrote for it (--output-dir)
# go to <build dir>/soaview_cuda/<target>_<name>/, re-translated when the
# source or any header it includes changes (a depfile). The .cu file's own
# directory comes first for quoted includes, so the rewritten headers replace
# the originals; the original source directory stays on the path for the
# headers soaview left alone. Translation errors (loops soaview refuses)
# fail the build with clang-style diagnostics.
function(soaview_cuda_sources target)
  cmake_parse_arguments(SV "" "" "FLAGS" ${ARGN})
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  soaview_translate_dependency(translate_dep)
  foreach(src ${SV_UNPARSED_ARGUMENTS})
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME_WE)
    get_filename_component(srcdir "${abs}" DIRECTORY)
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/soaview_cuda/${target}_${name}")
    set(out "${dir}/${name}.cu")
    add_custom_command(OUTPUT "${out}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
      COMMAND "${SOAVIEW_TRANSLATE}" --backend=cuda "${abs}" -o "${out}"
              --output-dir "${dir}" --depfile "${out}.d" --
              -std=c++17 "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>" ${SV_FLAGS}
      DEPENDS "${abs}" ${translate_dep}
      DEPFILE "${out}.d"
      COMMENT "soaview: translating ${src} to CUDA"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties("${out}" PROPERTIES
      INCLUDE_DIRECTORIES "${dir};${srcdir}")
    target_sources(${target} PRIVATE "${out}")
  endforeach()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr>)
  target_include_directories(${target} PRIVATE
    $<TARGET_PROPERTY:soaview::runtime,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(${target} PRIVATE soaview::runtime)
endfunction()
