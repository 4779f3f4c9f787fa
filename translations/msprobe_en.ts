<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>DumpSummaryModel</name>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="67"/>
        <source>(single step)</source>
        <translation>(single step)</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="93"/>
        <source>Step / rank</source>
        <translation>Step / rank</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="94"/>
        <source>Entries</source>
        <translation>Entries</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="95"/>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="96"/>
        <source>Module</source>
        <translation>Module</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="97"/>
        <source>Backward</source>
        <translation>Backward</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="98"/>
        <source>Param grads</source>
        <translation>Param grads</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="99"/>
        <source>Tensors</source>
        <translation>Tensors</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="100"/>
        <source>NaN/Inf</source>
        <translation>NaN/Inf</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="101"/>
        <source>dump.json</source>
        <translation>dump.json</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="30"/>
        <source>msprobe studio</source>
        <translation>msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="37"/>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="38"/>
        <source>&amp;Open dump folder…</source>
        <translation>&amp;Open dump folder…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="40"/>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="45"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="51"/>
        <source>Open a dump folder (File → Open, or drop it here).</source>
        <translation>Open a dump folder (File → Open, or drop it here).</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="69"/>
        <source>Loading %1…</source>
        <translation>Loading %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="89"/>
        <source>Loading cancelled.</source>
        <translation>Loading cancelled.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="96"/>
        <source>%1 — msprobe studio</source>
        <translation>%1 — msprobe studio</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/studio/mainwindow.cpp" line="97"/>
        <source>%1: %n rank dump(s)</source>
        <translation><numerusform>%1: %n rank dump</numerusform><numerusform>%1: %n rank dumps</numerusform></translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="99"/>
        <source>Could not open %1</source>
        <translation>Could not open %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="100"/>
        <source>Could not open the dump</source>
        <translation>Could not open the dump</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="106"/>
        <source>Open dump folder</source>
        <translation>Open dump folder</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/studio/main.cpp" line="16"/>
        <source>Numerical-accuracy workstation for msprobe dumps.</source>
        <translation>Numerical-accuracy workstation for msprobe dumps.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="19"/>
        <source>A dump folder or dump.json to open.</source>
        <translation>A dump folder or dump.json to open.</translation>
    </message>
</context>
</TS>
