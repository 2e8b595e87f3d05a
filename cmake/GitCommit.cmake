# Records the git commit in every build (not only at configure time): a
# custom target re-runs git on each build and rewrites the generated source
# only when the commit (or dirtiness) changed, so nothing rebuilds needlessly.
set(MESO_GIT_SOURCE ${CMAKE_BINARY_DIR}/generated/git_commit.cpp)
add_custom_target(meso_git_commit
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUTPUT=${MESO_GIT_SOURCE}
          -P ${CMAKE_SOURCE_DIR}/cmake/WriteGitCommit.cmake
  BYPRODUCTS ${MESO_GIT_SOURCE}
  COMMENT "Recording git commit"
  VERBATIM)
