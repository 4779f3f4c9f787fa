// SPDX-License-Identifier: Apache-2.0
// msprobe: the headless command line of msprobe workstation.
#include "cli.h"

#include "support/error.h"

#include <cstdio>
#include <cstring>
#include <exception>

using namespace msprobe::cli;

namespace {

void printUsage(std::FILE* out)
{
    std::fprintf(out,
        "usage: msprobe [-h] [--version] <command> [<args>]\n\n"
        "msprobe workstation %s: numerical-accuracy debugging for deep-learning dumps.\n\n"
        "commands:\n",
        MSPROBE_VERSION);
    for (const auto& verb : verbs())
        std::fprintf(out, "  %-18.*s %.*s\n", static_cast<int>(verb.name.size()), verb.name.data(),
            static_cast<int>(verb.summary.size()), verb.summary.data());
    std::fprintf(out, "\nRun 'msprobe <command> -h' for the options of a command.\n");
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        printUsage(stderr);
        return kExitUsage;
    }
    const std::string command = argv[1];
    if (command == "-h" || command == "--help") {
        printUsage(stdout);
        return kExitOk;
    }
    if (command == "--version" || command == "-v") {
        std::printf("msprobe %s\n", MSPROBE_VERSION);
        return kExitOk;
    }
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& verb : verbs()) {
        if (verb.name != command)
            continue;
        try {
            return verb.run(args);
        } catch (const UsageError& error) {
            std::fprintf(stderr, "msprobe %s: error: %s\n(see 'msprobe %s -h')\n", command.c_str(),
                error.message.c_str(), command.c_str());
            return kExitUsage;
        } catch (const msprobe::support::Error& error) {
            std::fprintf(stderr, "msprobe %s: error: %s\n", command.c_str(), error.what());
            return kExitFailure;
        } catch (const std::exception& error) {
            std::fprintf(stderr, "msprobe %s: unexpected error: %s\n", command.c_str(), error.what());
            return kExitFailure;
        }
    }
    std::fprintf(stderr, "msprobe: unknown command '%s'\n\n", command.c_str());
    printUsage(stderr);
    return kExitUsage;
}
