# Embeds themes/*.json into a C++ source as raw string literals (views/theme.h builtin_themes()).
#   cmake -DTHEMES_DIR=<dir> -DTEMPLATE=<builtin_themes.cpp.in> -DOUTPUT=<file.cpp> -P embed_themes.cmake
# Run at build time by the runtop_views target whenever a theme file changes.
file(GLOB theme_files "${THEMES_DIR}/*.json")
list(SORT theme_files)
set(RUNTOP_THEME_ENTRIES "")
foreach(theme_file IN LISTS theme_files)
  get_filename_component(theme_name "${theme_file}" NAME_WE)
  file(READ "${theme_file}" theme_text)
  if(theme_text MATCHES "\\)runtop_json\"")
    message(FATAL_ERROR "${theme_file}: contains the raw-string delimiter )runtop_json\"")
  endif()
  string(APPEND RUNTOP_THEME_ENTRIES
         "    {\"${theme_name}\", R\"runtop_json(${theme_text})runtop_json\"},\n")
endforeach()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
