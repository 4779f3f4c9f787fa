// SPDX-License-Identifier: Apache-2.0
// Look and language of the studio, kept in QSettings ("theme" = light|dark, "language" = en|zh_CN).
#pragma once

#include <QString>

class QApplication;
class QTranslator;

namespace msprobe::studio::appearance {

bool darkTheme();
void setDarkTheme(bool dark); // saves and applies at once
void applyTheme(bool dark);

QString language(); // "" = the system's
void setLanguage(const QString& language); // saved; used on the next start
// Installs the translator for the saved (or system) language; false when none matches.
bool installTranslator(QApplication& app, QTranslator& translator, QTranslator& qtTranslator);

} // namespace msprobe::studio::appearance
