// SPDX-License-Identifier: Apache-2.0
// Python's repr() of floats and strings, which every CSV cell and item name depends on.
#include "test_util.h"

#include "support/python_text.h"

#include <cmath>
#include <limits>

using namespace msprobe;

class TestPyFormat : public QObject {
    Q_OBJECT

private slots:
    void floatRepr_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        // Expected strings are what CPython 3.11 prints for repr(value).
        QTest::newRow("integral") << 2.0 << "2.0";
        QTest::newRow("negative zero") << -0.0 << "-0.0";
        QTest::newRow("shortest") << 0.1 << "0.1";
        QTest::newRow("17 digits") << 1.6287082433700562 << "1.6287082433700562";
        QTest::newRow("small fixed") << 0.0001 << "0.0001";
        QTest::newRow("small exp") << 1e-05 << "1e-05";
        QTest::newRow("small exp digits") << 1.1175870895385742e-08 << "1.1175870895385742e-08";
        QTest::newRow("large fixed") << 1e15 << "1000000000000000.0";
        QTest::newRow("large exp") << 1e16 << "1e+16";
        QTest::newRow("large exp digits") << 1.5e+300 << "1.5e+300";
        QTest::newRow("negative") << -2.856235980987549 << "-2.856235980987549";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "nan";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "inf";
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << "-inf";
        QTest::newRow("123.456") << 123.456 << "123.456";
        QTest::newRow("denormal") << 5e-324 << "5e-324";
    }

    void floatRepr()
    {
        QFETCH(double, value);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(support::pythonFloatRepr(value)), expected);
    }

    void stringRepr()
    {
        QCOMPARE(QString::fromStdString(support::pythonStringRepr("abc")), QStringLiteral("'abc'"));
        QCOMPARE(QString::fromStdString(support::pythonStringRepr("it's")), QStringLiteral("\"it's\""));
        QCOMPARE(QString::fromStdString(support::pythonStringRepr("a'b\"c")), QStringLiteral("'a\\'b\"c'"));
        QCOMPARE(QString::fromStdString(support::pythonStringRepr("line\nnext\\")), QStringLiteral("'line\\nnext\\\\'"));
    }
};

QTEST_APPLESS_MAIN(TestPyFormat)
#include "tst_pyformat.moc"
