CPMAddPackage("gh:nlohmann/json@3.10.5")
CPMAddPackage("gh:fmtlib/fmt#7.1.3")
CPMAddPackage(
  NAME spdlog
  VERSION 1.8.2
  GITHUB_REPOSITORY gabime/spdlog
)
CPMFindPackage(NAME yaml-cpp GIT_REPOSITORY https://github.com/jbeder/yaml-cpp.git GIT_TAG 65c1c270dbe7eec37b2df2531d7497c4eea79aee)
CPMAddPackage("https://example.com/archive.tar.gz")
