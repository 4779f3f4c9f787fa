<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DumpSummaryModel</name>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="67"/>
        <source>(single step)</source>
        <translation>（单个 step）</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="93"/>
        <source>Step / rank</source>
        <translation>Step / rank</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="94"/>
        <source>Entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="95"/>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="96"/>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="97"/>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="98"/>
        <source>Param grads</source>
        <translation>参数梯度</translation>
    </message>
    <message>
        <location filename="../views/dumpsummarymodel.cpp" line="99"/>
        <source>Tensors</source>
        <translation>张量</translation>
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
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="38"/>
        <source>&amp;Open dump folder…</source>
        <translation>打开 dump 目录(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="40"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="45"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="51"/>
        <source>Open a dump folder (File → Open, or drop it here).</source>
        <translation>打开一个 dump 目录（文件 → 打开，或拖放到此处）。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="69"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="89"/>
        <source>Loading cancelled.</source>
        <translation>加载已取消。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="96"/>
        <source>%1 — msprobe studio</source>
        <translation>%1 — msprobe studio</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/studio/mainwindow.cpp" line="97"/>
        <source>%1: %n rank dump(s)</source>
        <translation><numerusform>%1：%n 个 rank dump</numerusform></translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="99"/>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="100"/>
        <source>Could not open the dump</source>
        <translation>无法打开该 dump</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="106"/>
        <source>Open dump folder</source>
        <translation>打开 dump 目录</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/studio/main.cpp" line="16"/>
        <source>Numerical-accuracy workstation for msprobe dumps.</source>
        <translation>msprobe dump 数值精度分析工作站。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="19"/>
        <source>A dump folder or dump.json to open.</source>
        <translation>要打开的 dump 目录或 dump.json。</translation>
    </message>
</context>
</TS>
