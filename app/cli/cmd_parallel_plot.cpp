// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "parallel/parallel_layout.h"
#include "parallel/parallel_plot.h"
#include "support/error.h"

#include <charconv>
#include <climits>
#include <cstdio>
#include <filesystem>

namespace msprobe::cli {

namespace {

const char* kParallelPlotHelp
    = "usage: msprobe parallel_plot --world_size N --num_layers N [--tensor_parallel_size N]\n"
      "                             [--pipeline_parallel_size N] [--num_layers_per_virtual_pipeline_stage N]\n"
      "                             [--order tp-cp-ep-dp-pp] [--standalone_embedding_stage] [-o DIR] [--json]\n\n"
      "Draw how Megatron spreads a model over the ranks (spec 4): one row per tensor-parallel group (row 0 at the\n"
      "bottom), one column per virtual pipeline stage, each block coloured by model copy and labelled with its\n"
      "layers (Embed, L{first}-{last}, Out). Writes DIR/ws{N}_ln{N}_tp{N}_pp{N}_vpp{N}.png; above 256 TP groups\n"
      "the rows are the pipeline stages, each block striped with the colours of every copy.\n\n"
      "options:\n"
      "  --world_size N                            number of ranks (1 to 16384)\n"
      "  --num_layers N                            transformer layers (1 to 4096)\n"
      "  --tensor_parallel_size N                  default 1\n"
      "  --pipeline_parallel_size N                default 1\n"
      "  --num_layers_per_virtual_pipeline_stage N gives vpp = layers per pipeline stage / N\n"
      "  --order ORDER                             rank order of the dimensions, fastest first (default tp-cp-ep-dp-pp)\n"
      "  --standalone_embedding_stage              pipeline stage 0 holds only the embedding\n"
      "  -o, --output_path DIR                     output directory (default ./)\n"
      "  --dpi N                                   pixels per inch of the picture (default 100, 50 to 300)\n"
      "  --json                                    print the derived layout (groups, copies, every cell) as JSON\n"
      "  -h, --help                                show this help\n";

// A value that is not a whole number becomes 0, so that validation refuses it with the reference's
// "must be a positive integer" in its turn; a number too large for the type saturates (and exceeds a maximum).
long long wholeNumber(const std::string& text)
{
    long long value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ptr != end || text.empty())
        return 0;
    if (ec == std::errc::result_out_of_range)
        return text[0] == '-' ? 0 : LLONG_MAX;
    return value;
}

} // namespace

int runParallelPlot(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kParallelPlotHelp, stdout);
        return kExitOk;
    }
    parallel::ParallelConfig config;
    std::optional<std::string> worldSize, numLayers;
    std::string output = "./";
    bool json = false;
    parallel::PlotOptions plotOptions;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "--world_size" }))
            worldSize = *v;
        else if (auto v = scan.value({ "--num_layers" }))
            numLayers = *v;
        else if (auto v = scan.value({ "--tensor_parallel_size" }))
            config.tensorParallelSize = wholeNumber(*v);
        else if (auto v = scan.value({ "--pipeline_parallel_size" }))
            config.pipelineParallelSize = wholeNumber(*v);
        else if (auto v = scan.value({ "--num_layers_per_virtual_pipeline_stage" }))
            config.layersPerVirtualStage = wholeNumber(*v);
        else if (auto v = scan.value({ "--order" }))
            config.order = *v;
        else if (scan.isFlag({ "--standalone_embedding_stage" }))
            config.standaloneEmbeddingStage = true;
        else if (auto v = scan.value({ "-o", "--output_path" }))
            output = *v;
        else if (auto v = scan.value({ "--dpi" })) {
            const long long dpi = wholeNumber(*v);
            if (dpi < 50 || dpi > 300)
                throw UsageError { "--dpi must be a whole number from 50 to 300, not " + *v };
            plotOptions.dpi = static_cast<double>(dpi);
        } else if (scan.isFlag({ "--json" }))
            json = true;
        else
            throw UsageError { "unknown option " + scan.peek() };
    }
    if (!worldSize)
        throw UsageError { "--world_size is required" };
    if (!numLayers)
        throw UsageError { "--num_layers is required" };
    config.worldSize = wholeNumber(*worldSize);
    config.numLayers = wholeNumber(*numLayers);

    // Everything is checked before the output directory is made or an old picture replaced.
    const parallel::ParallelLayout layout = parallel::deriveLayout(config);
    const parallel::PlotPicture picture = parallel::drawParallelPlot(layout, plotOptions);
    std::error_code ec;
    std::filesystem::create_directories(output, ec);
    if (ec)
        throw support::Error(output, {}, "cannot create the output directory: " + ec.message());
    const std::filesystem::path file = std::filesystem::path(output) / layout.fileName;
    if (std::filesystem::exists(file, ec))
        std::fprintf(stderr, "warning: replacing the existing %s\n", file.string().c_str());
    parallel::savePicture(picture, file);
    if (picture.dpi < plotOptions.dpi)
        std::fprintf(stderr, "note: drawn at %.0f dpi instead of %.0f so that the picture (%d x %d) stays within %.0f million pixels\n",
            picture.dpi, plotOptions.dpi, picture.width, picture.height, plotOptions.maxPixels / 1e6);
    if (picture.summarised)
        std::fprintf(stderr, "note: %zu TP groups are drawn as %d pipeline-stage rows (one per stage, striped by model copy)\n",
            layout.rows.size(), picture.rowCount);
    if (json)
        std::fputs(parallel::layoutJson(layout).c_str(), stdout);
    else
        std::printf("The parallelism plot (%d x %d pixels) is saved in: %s\n", picture.width, picture.height,
            file.string().c_str());
    return kExitOk;
}

} // namespace msprobe::cli
