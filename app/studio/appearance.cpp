// SPDX-License-Identifier: Apache-2.0
#include "appearance.h"

#include <QApplication>
#include <QLocale>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QLibraryInfo>
#include <QTranslator>

namespace msprobe::studio::appearance {

namespace {

const QString kThemeKey = QStringLiteral("theme");
const QString kLanguageKey = QStringLiteral("language");

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5), accent(0x3d, 0x7e, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8d, 0x92));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, accent.lighter(130));
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x45, 0x47, 0x4b));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    for (auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, QColor(0x76, 0x78, 0x7c));
    return p;
}

} // namespace

bool darkTheme() { return QSettings().value(kThemeKey).toString() == QLatin1String("dark"); }

void applyTheme(bool dark)
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
}

void setDarkTheme(bool dark)
{
    QSettings().setValue(kThemeKey, dark ? QStringLiteral("dark") : QStringLiteral("light"));
    applyTheme(dark);
}

QString language() { return QSettings().value(kLanguageKey).toString(); }

void setLanguage(const QString& language) { QSettings().setValue(kLanguageKey, language); }

bool installTranslator(QApplication& app, QTranslator& translator, QTranslator& qtTranslator)
{
    const QString chosen = language();
    const QLocale locale = chosen.isEmpty() ? QLocale() : QLocale(chosen);
    if (!translator.load(locale, QStringLiteral("msprobe"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        return false;
    app.installTranslator(&translator);
    // Qt's own texts (Open, Cancel, Yes/No in dialogs) from Qt's translations, where they are installed.
    if (qtTranslator.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app.installTranslator(&qtTranslator);
    return true;
}

} // namespace msprobe::studio::appearance
