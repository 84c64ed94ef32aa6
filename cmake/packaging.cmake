# make install (PREFIX, DESTDIR) and the .deb (CPack) lay out the same files.
include(GNUInstallDirs)
install(FILES ${CMAKE_BINARY_DIR}/runtop.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_BINARY_DIR}/completion/runtop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
# Debian's zsh looks in /usr/share/zsh/vendor-completions and /usr/local/share/zsh/site-functions:
# the directory follows the prefix installed to (`cmake --install --prefix`, or CPack's staging
# .../usr), known only at install time.
install(CODE "
  if(CMAKE_INSTALL_PREFIX MATCHES \"(^|/)usr$\")
    set(runtop_zsh_dir \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions\")
  else()
    set(runtop_zsh_dir \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/zsh/site-functions\")
  endif()
  file(INSTALL \"${CMAKE_BINARY_DIR}/completion/_runtop\" DESTINATION \"\${runtop_zsh_dir}\")")
# The built-in themes are compiled in; their files are installed as starting points for a
# user's own theme ($XDG_CONFIG_HOME/runtop/themes/, themes/README.md).
install(FILES ${RUNTOP_THEME_FILES} themes/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/runtop/themes)
install(FILES README.md CHANGELOG.md docs/config.md docs/diff.md docs/howto.md docs/keys.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME runtop)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "runtop developers <runtop@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "terminal dashboard for deep-learning training runs")
set(CPACK_PACKAGE_DESCRIPTION
    "runtop tails the monitor output of training jobs (TensorBoard event files, msProbe, DeepSpeed, Lightning, Hugging Face, Oumi) live over plain SSH: sparklines, per-rank tables, a rank x step heatmap, anomalies first failure first, and two-run comparisons. runtop check gates a pipeline on alert rules.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
# Dependencies from the libraries the binary links (dpkg-shlibdeps): libncursesw6, libtinfo6,
# libprotobuf32, libre2-9, libfmt9, libinotifytools0, libstdc++6, libc6.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "tmux")
set(CPACK_STRIP_FILES ON)
include(CPack)
