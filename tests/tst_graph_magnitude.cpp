// SPDX-License-Identifier: Apache-2.0
// The error magnitude of a vis.db node (the "Error magnitude" colouring): the worst output relative error as
// the reference plugin's updatePrecisionError reads it, per compare mode, and its five-step scale.
#include "graph/visdb/error_magnitude.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace msprobe;
using namespace msprobe::graph;

class TestGraphMagnitude : public QObject {
    Q_OBJECT

private slots:
    void statisticsTakeTheWorstOutputRelativeError()
    {
        // Only output items count; "x%" is x / 100.
        const std::string data = R"({"Functional.linear.1.forward.output.0": {"Max": "3.0", "MaxRelativeErr": "0.0%",
            "MinRelativeErr": "12.5%", "MeanRelativeErr": "N/A", "NormRelativeErr": "55.555556%"},
            "Functional.linear.1.forward.output.1": {"NormRelativeErr": "-20.0%"}})";
        QCOMPARE(errorMagnitude(data, compare::CompareMode::Statistics), 0.55555556);
        // Capped at 1; NaN and inf are the worst.
        QCOMPARE(errorMagnitude(R"({"o": {"MaxRelativeErr": "250.0%"}})", compare::CompareMode::Statistics), 1.0);
        QCOMPARE(errorMagnitude(R"({"o": {"MeanRelativeErr": "nan"}})", compare::CompareMode::Statistics), 1.0);
        QCOMPARE(errorMagnitude(R"({"o": {"NormRelativeErr": "inf%"}})", compare::CompareMode::Statistics), 1.0);
        // NaN/inf in the debug output's own statistics (its relative errors are then "N/A"): the worst.
        QCOMPARE(errorMagnitude(R"({"o": {"Max": "inf", "Min": "-1.0", "MaxRelativeErr": "N/A", "MinRelativeErr": "0.0%"}})",
                     compare::CompareMode::Statistics),
            1.0);
        QCOMPARE(errorMagnitude(R"({"o": {"Mean": "nan", "Cosine": "1.0"}})", compare::CompareMode::Tensor), 1.0);
        // Nothing measurable: no grade.
        QVERIFY(std::isnan(errorMagnitude(R"({"o": {"MaxRelativeErr": "N/A", "Max": "1.0"}})", compare::CompareMode::Statistics)));
        QVERIFY(std::isnan(errorMagnitude("", compare::CompareMode::Statistics)));
        QVERIFY(std::isnan(errorMagnitude("{}", compare::CompareMode::Statistics)));
        QVERIFY(std::isnan(errorMagnitude("{not json", compare::CompareMode::Statistics)));
    }

    void tensorModeReadsCosineAndMaxRelativeError()
    {
        QCOMPARE(errorMagnitude(R"({"o": {"Cosine": "0.75", "MaxRelativeErr": "0.1"}})", compare::CompareMode::Tensor), 0.25);
        QCOMPARE(errorMagnitude(R"({"o": {"Cosine": "1.0", "MaxRelativeErr": "0.4"}})", compare::CompareMode::Tensor), 0.4);
        QCOMPARE(errorMagnitude(R"({"o": {"Cosine": "nan"}})", compare::CompareMode::Tensor), 1.0);
        QVERIFY(std::isnan(errorMagnitude(R"({"o": {"Cosine": "unsupported", "MaxRelativeErr": "unsupported"}})", compare::CompareMode::Tensor)));
    }

    void md5IsAllOrNothing()
    {
        QCOMPARE(errorMagnitude(R"({"a": {"Result": "pass"}, "b": {"Result": "pass"}})", compare::CompareMode::Md5), 0.0);
        QCOMPARE(errorMagnitude(R"({"a": {"Result": "pass"}, "b": {"Result": "diff"}})", compare::CompareMode::Md5), 1.0);
        QCOMPARE(errorMagnitude(R"({"a": {"Result": "pass"}, "b": {"Result": "error"}})", compare::CompareMode::Md5), 1.0);
        // An item without a checksum to compare (a scalar: "N/A") does not count.
        QCOMPARE(errorMagnitude(R"({"a": {"Result": "pass"}, "b": {"Result": "N/A"}})", compare::CompareMode::Md5), 0.0);
        QVERIFY(std::isnan(errorMagnitude(R"({"b": {"Result": "N/A"}})", compare::CompareMode::Md5)));
    }

    void graphMagnitudesSkipUnmatchedNodes()
    {
        VisGraph graph;
        graph.nodes.resize(2);
        graph.nodes[0].link = { "Functional.relu.0.forward" };
        graph.nodes[0].outputData = R"({"o": {"NormRelativeErr": "30.0%"}})";
        graph.nodes[1].outputData = R"({"o": {"NormRelativeErr": "30.0%"}})"; // no partner: nothing was compared
        const auto magnitudes = errorMagnitudes(graph, compare::CompareMode::Statistics);
        QCOMPARE(magnitudes.size(), std::size_t(2));
        QCOMPARE(magnitudes[0], 0.3f);
        QVERIFY(std::isnan(magnitudes[1]));
    }

    void fiveStepsOfTheFrontEndPalette()
    {
        QCOMPARE(magnitudeStep(0.0), 0);
        QCOMPARE(magnitudeStep(0.1999), 0);
        QCOMPARE(magnitudeStep(0.2), 1);
        QCOMPARE(magnitudeStep(0.5), 2);
        QCOMPARE(magnitudeStep(double(0.6f)), 3);
        QCOMPARE(magnitudeStep(0.8), 4);
        QCOMPARE(magnitudeStep(1.0), 4);
        QCOMPARE(magnitudeStep(NAN), -1);
        QCOMPARE(magnitudeColour(0), std::string_view("#FFFCF3"));
        QCOMPARE(magnitudeColour(1), std::string_view("#FFEDBE"));
        QCOMPARE(magnitudeColour(2), std::string_view("#FFDC7F"));
        QCOMPARE(magnitudeColour(3), std::string_view("#FFC62E"));
        QCOMPARE(magnitudeColour(4), std::string_view("#FF704D"));
    }
};

QTEST_MAIN(TestGraphMagnitude)
#include "tst_graph_magnitude.moc"
