# runtop-portable (`make portable`): the same libraries linked into one static executable, the
# C++ runtime, glibc, ncurses, protobuf, RE2 and inotify-tools included, to copy to a login node
# where nothing can be installed. Debian has no libfmt.a: app/portable/fmt_runtime.cpp builds
# fmt's compiled part from its headers. Not with the sanitizers (they do not link statically).
if(NOT RUNTOP_SANITIZE AND NOT RUNTOP_FUZZ)
  set(RUNTOP_STATIC_DEPS "")
  foreach(lib ncursesw tinfo protobuf re2 inotifytools z)
    find_library(RUNTOP_STATIC_${lib} NAMES lib${lib}.a)
    if(RUNTOP_STATIC_${lib})
      list(APPEND RUNTOP_STATIC_DEPS ${RUNTOP_STATIC_${lib}})
    else()
      set(RUNTOP_STATIC_MISSING "${RUNTOP_STATIC_MISSING} lib${lib}.a")
    endif()
  endforeach()
  if(RUNTOP_STATIC_MISSING)
    message(STATUS "runtop-portable unavailable: missing${RUNTOP_STATIC_MISSING}")
  else()
    set(RUNTOP_PORTABLE_LIBS runtop_app runtop_terminal runtop_views runtop_readers
                             runtop_writers runtop_core runtop_proto)
    add_executable(runtop-portable EXCLUDE_FROM_ALL app/main.cpp app/portable/fmt_runtime.cpp)
    target_include_directories(runtop-portable PRIVATE ${CMAKE_SOURCE_DIR})
    target_link_options(runtop-portable PRIVATE -static -Wl,--gc-sections -s)
    set(RUNTOP_PORTABLE_ARCHIVES "")
    foreach(lib ${RUNTOP_PORTABLE_LIBS})
      list(APPEND RUNTOP_PORTABLE_ARCHIVES $<TARGET_FILE:${lib}>)
    endforeach()
    # Our archives refer to each other in both directions: one group resolves them all.
    target_link_libraries(runtop-portable PRIVATE -Wl,--start-group ${RUNTOP_PORTABLE_ARCHIVES}
                          -Wl,--end-group ${RUNTOP_STATIC_DEPS} -pthread)
    add_dependencies(runtop-portable ${RUNTOP_PORTABLE_LIBS})
  endif()
endif()
