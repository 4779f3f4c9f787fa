<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>CompareTableView</name>
    <message>
        <location filename="../views/comparetableview.cpp" line="41"/>
        <source>Filter by NPU or bench name…</source>
        <translation>Filter by NPU or bench name…</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="43"/>
        <source>All results</source>
        <translation>All results</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="44"/>
        <source>Warning and error</source>
        <translation>Warning and error</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="45"/>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="46"/>
        <source>Warning</source>
        <translation>Warning</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="47"/>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="211"/>
        <source>%1 of %2 rows</source>
        <translation>%1 of %2 rows</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="23"/>
        <source>All steps and ranks</source>
        <translation>All steps and ranks</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="26"/>
        <source>Show the rows of every compared step and rank, with Step and Rank columns</source>
        <translation>Show the rows of every compared step and rank, with Step and Rank columns</translation>
    </message>
</context>
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
    <name>GraphDiffView</name>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="84"/>
        <source>Precision</source>
        <translation>Precision</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="84"/>
        <source>Overflow</source>
        <translation>Overflow</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="87"/>
        <source>Sync expand</source>
        <translation>Sync expand</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="89"/>
        <source>Expanding a node also expands its match on the other side</source>
        <translation>Expanding a node also expands its match on the other side</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="101"/>
        <source>Fit</source>
        <translation>Fit</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="101"/>
        <source>Fit both graphs to the window</source>
        <translation>Fit both graphs to the window</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="102"/>
        <source>Levels</source>
        <translation>Levels</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="102"/>
        <source>Collapse all modules, or open them down to a depth</source>
        <translation>Collapse all modules, or open them down to a depth</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="106"/>
        <source>Collapse all</source>
        <translation>Collapse all</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="108"/>
        <source>Expand to depth %1</source>
        <translation>Expand to depth %1</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="110"/>
        <source>First divergence</source>
        <translation>First divergence</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="110"/>
        <source>Go to the first error-level node in execution order</source>
        <translation>Go to the first error-level node in execution order</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="111"/>
        <source>Click: select (the match is selected on the other side)
Double-click: expand / collapse
Drag empty space: pan; drag a node onto a node of the other side: match them
Ctrl+wheel, W / S: zoom
Wheel: scroll; A / D: left / right</source>
        <translation>Click: select (the match is selected on the other side)
Double-click: expand / collapse
Drag empty space: pan; drag a node onto a node of the other side: match them
Ctrl+wheel, W / S: zoom
Wheel: scroll; A / D: left / right</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="136"/>
        <location filename="../views/graph/graphdiffview.cpp" line="468"/>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="137"/>
        <location filename="../views/graph/graphdiffview.cpp" line="470"/>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="194"/>
        <location filename="../views/graph/graphdiffview.cpp" line="256"/>
        <location filename="../views/graph/graphdiffview.cpp" line="314"/>
        <location filename="../views/graph/graphdiffview.cpp" line="333"/>
        <source>Laying out…</source>
        <translation>Laying out…</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="374"/>
        <source>Locate matched node</source>
        <translation>Locate matched node</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="376"/>
        <source>Collapse</source>
        <translation>Collapse</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="376"/>
        <source>Expand</source>
        <translation>Expand</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="377"/>
        <source>Show details</source>
        <translation>Show details</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="382"/>
        <source>Unmatch</source>
        <translation>Unmatch</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="385"/>
        <source>Copy name</source>
        <translation>Copy name</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="477"/>
        <source>Nothing to export yet: the graph is not laid out</source>
        <translation>Nothing to export yet: the graph is not laid out</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="490"/>
        <source>msprobe graph diff — step %1, rank %2</source>
        <translation>msprobe graph diff — step %1, rank %2</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="490"/>
        <source>msprobe graph — step %1, rank %2</source>
        <translation>msprobe graph — step %1, rank %2</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="520"/>
        <source>msprobe graph diff</source>
        <translation>msprobe graph diff</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="523"/>
        <location filename="../views/graph/graphdiffview.cpp" line="529"/>
        <location filename="../views/graph/graphdiffview.cpp" line="547"/>
        <source>Cannot write %1</source>
        <translation>Cannot write %1</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="538"/>
        <source>The picture is too large to render (%1 x %2)</source>
        <translation>The picture is too large to render (%1 x %2)</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="405"/>
        <source>Data send</source>
        <translation>Data send</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="84"/>
        <source>Error magnitude</source>
        <translation>Error magnitude</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="85"/>
        <source>Colour nodes by precision level, by overflow level (needs a db made with -oc) or by error magnitude (the worst output relative error, or 1 - cosine, on a five-step scale)</source>
        <translation>Colour nodes by precision level, by overflow level (needs a db made with -oc) or by error magnitude (the worst output relative error, or 1 - cosine, on a five-step scale)</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="405"/>
        <source>Data receive</source>
        <translation>Data receive</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="405"/>
        <source>Data send-receive</source>
        <translation>Data send-receive</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="95"/>
        <source>Debug mini-map</source>
        <translation>Debug mini-map</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="97"/>
        <source>Bench mini-map</source>
        <translation>Bench mini-map</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="24"/>
        <source>Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: API list (standalone APIs between modules). Dotted box: multi collection (fused operators). A badge on a collapsed module counts the warnings and errors inside it, in the worst colour.</source>
        <translation>Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: API list (standalone APIs between modules). Dotted box: multi collection (fused operators). A badge on a collapsed module counts the warnings and errors inside it, in the worst colour.</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="44"/>
        <source>Module</source>
        <translation>Module</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="45"/>
        <source>Leaf</source>
        <translation>Leaf</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="46"/>
        <source>API list</source>
        <translation>API list</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="47"/>
        <source>Multi collection</source>
        <translation>Multi collection</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="49"/>
        <source>Medium</source>
        <translation>Medium</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="50"/>
        <source>High</source>
        <translation>High</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="51"/>
        <source>Critical</source>
        <translation>Critical</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="54"/>
        <source>A matched node without a compared output (no grade); a matched bench node takes its debug partner&apos;s colour</source>
        <translation>A matched node without a compared output (no grade); a matched bench node takes its debug partner&apos;s colour</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="56"/>
        <source>No node on the other side</source>
        <translation>No node on the other side</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="58"/>
        <source>The node&apos;s worst output relative error (Max, Min, Mean, Norm; tensor mode: 1 - cosine or MaxRelativeErr; md5: a differing checksum is 100%), capped at 100%</source>
        <translation>The node&apos;s worst output relative error (Max, Min, Mean, Norm; tensor mode: 1 - cosine or MaxRelativeErr; md5: a differing checksum is 100%), capped at 100%</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="62"/>
        <source>≥ %1%</source>
        <translation>≥ %1%</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="63"/>
        <source>&lt; %1%</source>
        <translation>&lt; %1%</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="64"/>
        <source>%1–%2%</source>
        <translation>%1–%2%</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="72"/>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="73"/>
        <source>Warning</source>
        <translation>Warning</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="74"/>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="67"/>
        <location filename="../views/graph/graphlegend.cpp" line="75"/>
        <source>No grade</source>
        <translation>No grade</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="68"/>
        <location filename="../views/graph/graphlegend.cpp" line="76"/>
        <source>Unmatched</source>
        <translation>Unmatched</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="78"/>
        <source>Node (one dump: not compared)</source>
        <translation>Node (one dump: not compared)</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="44"/>
        <source>A module or operator; double-click a module to expand it</source>
        <translation>A module or operator; double-click a module to expand it</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="45"/>
        <source>An unexpanded node: it has no children, so it cannot be expanded</source>
        <translation>An unexpanded node: it has no children, so it cannot be expanded</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="46"/>
        <source>A collection of standalone APIs between modules</source>
        <translation>A collection of standalone APIs between modules</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="47"/>
        <source>A collection of fused operators</source>
        <translation>A collection of fused operators</translation>
    </message>
</context>
<context>
    <name>GraphMinimap</name>
    <message>
        <location filename="../views/graph/graphminimap.cpp" line="24"/>
        <source>Overview: click or drag to move the view</source>
        <translation>Overview: click or drag to move the view</translation>
    </message>
</context>
<context>
    <name>GraphSwitcher</name>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="34"/>
        <source>Training step (Alt+Left / Alt+Right)</source>
        <translation>Training step (Alt+Left / Alt+Right)</translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="35"/>
        <source>Rank (Ctrl+PgUp / Ctrl+PgDown)</source>
        <translation>Rank (Ctrl+PgUp / Ctrl+PgDown)</translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="36"/>
        <source>Micro step: only the nodes of one micro batch</source>
        <translation>Micro step: only the nodes of one micro batch</translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="39"/>
        <source> Step </source>
        <translation> Step </translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="41"/>
        <source> Rank </source>
        <translation> Rank </translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="43"/>
        <source> Micro step </source>
        <translation> Micro step </translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="60"/>
        <source>All</source>
        <translation>All</translation>
    </message>
</context>
<context>
    <name>GraphViewSync</name>
    <message>
        <location filename="../views/graph/graphviewsync.cpp" line="16"/>
        <source>Sync pan and zoom</source>
        <translation>Sync pan and zoom</translation>
    </message>
    <message>
        <location filename="../views/graph/graphviewsync.cpp" line="21"/>
        <source>Scrolling or zooming one graph moves the other to the matching place</source>
        <translation>Scrolling or zooming one graph moves the other to the matching place</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="46"/>
        <source>msprobe studio</source>
        <translation>msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="36"/>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="59"/>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="58"/>
        <location filename="../app/studio/mainwindow_memory.cpp" line="76"/>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="274"/>
        <source>Step %1, rank %2: %3 rows: %4 pass, %5 warning, %6 error</source>
        <translation>Step %1, rank %2: %3 rows: %4 pass, %5 warning, %6 error</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="289"/>
        <location filename="../app/studio/mainwindow.cpp" line="304"/>
        <source>Loading…</source>
        <translation>Loading…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="302"/>
        <source>A compare CSV has no graph. Open the dump folders (a problem/bench pair) to see the graphs and the verdict.</source>
        <translation>A compare CSV has no graph. Open the dump folders (a problem/bench pair) to see the graphs and the verdict.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="306"/>
        <source>No graph for step %1, rank %2.</source>
        <translation>No graph for step %1, rank %2.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="308"/>
        <source>No graph for what is open.</source>
        <translation>No graph for what is open.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="334"/>
        <source>Loading %1…</source>
        <translation>Loading %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="372"/>
        <source>Loading cancelled.</source>
        <translation>Loading cancelled.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="365"/>
        <source>%1 — msprobe studio</source>
        <translation>%1 — msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="298"/>
        <source>No graph: the model graph needs an L0 or mix dump (its construct.json holds the module structure); an L1 dump has the compare table and the verdict only.

%1</source>
        <translation>No graph: the model graph needs an L0 or mix dump (its construct.json holds the module structure); an L1 dump has the compare table and the verdict only.

%1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="374"/>
        <location filename="../app/studio/mainwindow.cpp" line="375"/>
        <source>Could not open %1</source>
        <translation>Could not open %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="148"/>
        <source>Open dump folder</source>
        <translation>Open dump folder</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="59"/>
        <source>Stop loading (Esc)</source>
        <translation>Stop loading (Esc)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="65"/>
        <source>Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here).</source>
        <translation>Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here).</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="156"/>
        <source>Search and filter</source>
        <translation>Search and filter</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="161"/>
        <source>Node matching</source>
        <translation>Node matching</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="169"/>
        <source>Dump summary</source>
        <translation>Dump summary</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="175"/>
        <source>Compare table</source>
        <translation>Compare table</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="178"/>
        <source>Node details</source>
        <translation>Node details</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="189"/>
        <source>Matching failed</source>
        <translation>Matching failed</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="37"/>
        <source>Open &amp;dump folder…</source>
        <translation>Open &amp;dump folder…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="38"/>
        <source>Open problem/bench &amp;pair…</source>
        <translation>Open problem/bench &amp;pair…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="38"/>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="39"/>
        <source>Open &amp;vis.db…</source>
        <translation>Open &amp;vis.db…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="39"/>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="40"/>
        <location filename="../app/studio/mainwindow_actions.cpp" line="82"/>
        <source>Open vis.db</source>
        <translation>Open vis.db</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="40"/>
        <source>Graph databases (*.vis.db *.db);;All files (*)</source>
        <translation>Graph databases (*.vis.db *.db);;All files (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="41"/>
        <source>Open compare &amp;CSV…</source>
        <translation>Open compare &amp;CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="41"/>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="42"/>
        <source>Open compare result</source>
        <translation>Open compare result</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="42"/>
        <source>Compare results (*.csv);;All files (*)</source>
        <translation>Compare results (*.csv);;All files (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="43"/>
        <source>Open &amp;memory dump…</source>
        <translation>Open &amp;memory dump…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="43"/>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="44"/>
        <source>Compare with memory dump…</source>
        <translation>Compare with memory dump…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="45"/>
        <source>Export memory panel as CSV…</source>
        <translation>Export memory panel as CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="46"/>
        <source>Open &amp;trend database…</source>
        <translation>Open &amp;trend database…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="46"/>
        <source>Ctrl+Alt+T</source>
        <translation>Ctrl+Alt+T</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="47"/>
        <source>Open &amp;recent</source>
        <translation>Open &amp;recent</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="50"/>
        <source>&amp;Export</source>
        <translation>&amp;Export</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="51"/>
        <source>Comparison as &amp;CSV…</source>
        <translation>Comparison as &amp;CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="51"/>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="53"/>
        <source>Comparison as &amp;XLSX…</source>
        <translation>Comparison as &amp;XLSX…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="54"/>
        <source>&amp;HTML report…</source>
        <translation>&amp;HTML report…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="56"/>
        <source>Graph as &amp;PNG or SVG…</source>
        <translation>Graph as &amp;PNG or SVG…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="56"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="57"/>
        <source>&amp;Trend panel as PNG, SVG or CSV…</source>
        <translation>&amp;Trend panel as PNG, SVG or CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="61"/>
        <source>&amp;Edit</source>
        <translation>&amp;Edit</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="62"/>
        <source>&amp;Undo</source>
        <translation>&amp;Undo</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="64"/>
        <source>&amp;Redo</source>
        <translation>&amp;Redo</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="69"/>
        <source>&amp;Filter the compare table</source>
        <translation>&amp;Filter the compare table</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="76"/>
        <source>Main</source>
        <translation>Main</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="80"/>
        <source>Open folder</source>
        <translation>Open folder</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="81"/>
        <source>Open pair</source>
        <translation>Open pair</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="83"/>
        <source>Open CSV</source>
        <translation>Open CSV</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="91"/>
        <source>&amp;Navigate</source>
        <translation>&amp;Navigate</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="92"/>
        <source>&amp;Next rank</source>
        <translation>&amp;Next rank</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="92"/>
        <source>Ctrl+PgDown</source>
        <translation>Ctrl+PgDown</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="93"/>
        <source>&amp;Previous rank</source>
        <translation>&amp;Previous rank</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="93"/>
        <source>Ctrl+PgUp</source>
        <translation>Ctrl+PgUp</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="94"/>
        <source>Next &amp;step</source>
        <translation>Next &amp;step</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="94"/>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="95"/>
        <source>P&amp;revious step</source>
        <translation>P&amp;revious step</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="95"/>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="97"/>
        <source>Go to first &amp;divergence</source>
        <translation>Go to first &amp;divergence</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="97"/>
        <source>F3</source>
        <translation>F3</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="268"/>
        <source>First divergence: %1 — %2</source>
        <translation>First divergence: %1 — %2</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="272"/>
        <source>No divergence: every entry stays within tolerance.</source>
        <translation>No divergence: every entry stays within tolerance.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="276"/>
        <source>No compare table here: showing the graph&apos;s first error-level node.</source>
        <translation>No compare table here: showing the graph&apos;s first error-level node.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="278"/>
        <source>No error-level node in this graph.</source>
        <translation>No error-level node in this graph.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="99"/>
        <source>First divergence</source>
        <translation>First divergence</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="103"/>
        <source>Cancel loading</source>
        <translation>Cancel loading</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="108"/>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="114"/>
        <source>&amp;Dark theme</source>
        <translation>&amp;Dark theme</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="117"/>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="119"/>
        <source>&amp;Language</source>
        <translation>&amp;Language</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="122"/>
        <source>System default</source>
        <translation>System default</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="130"/>
        <source>The language changes the next time msprobe studio starts.</source>
        <translation>The language changes the next time msprobe studio starts.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="134"/>
        <source>&amp;Reset layout</source>
        <translation>&amp;Reset layout</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="136"/>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="137"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Keyboard shortcuts</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="138"/>
        <source>&amp;About msprobe studio</source>
        <translation>&amp;About msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="139"/>
        <source>About msprobe studio</source>
        <translation>About msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="140"/>
        <source>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, node matching and reports.</source>
        <translation>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, node matching and reports.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="318"/>
        <source>Cannot open</source>
        <translation>Cannot open</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="349"/>
        <source>%p% — about %1 s left</source>
        <translation>%p% — about %1 s left</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="352"/>
        <source>Loading: %1</source>
        <translation>Loading: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="359"/>
        <source> vs </source>
        <translation> vs </translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="366"/>
        <source>Opened %1 in %2 s.</source>
        <translation>Opened %1 in %2 s.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="179"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="180"/>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel workbook (*.xlsx)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="181"/>
        <source>HTML report (*.html)</source>
        <translation>HTML report (*.html)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="185"/>
        <source>Export</source>
        <translation>Export</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="192"/>
        <location filename="../app/studio/mainwindow_actions.cpp" line="204"/>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="51"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="131"/>
        <source>Written %1</source>
        <translation>Written %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="194"/>
        <location filename="../app/studio/mainwindow_actions.cpp" line="206"/>
        <location filename="../app/studio/mainwindow_memory.cpp" line="184"/>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="53"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="122"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="133"/>
        <source>Export failed</source>
        <translation>Export failed</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="199"/>
        <source>Export graph</source>
        <translation>Export graph</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="199"/>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="46"/>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG image (*.png);;SVG drawing (*.svg)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="218"/>
        <source>Keyboard shortcuts</source>
        <translation>Keyboard shortcuts</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="19"/>
        <source>Parallelism</source>
        <translation>Parallelism</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="46"/>
        <source>Export parallelism</source>
        <translation>Export parallelism</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="31"/>
        <source>Open memory dump</source>
        <translation>Open memory dump</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="32"/>
        <location filename="../app/studio/mainwindow_memory.cpp" line="40"/>
        <source>Memory traces: msMemScope dumps, PyTorch snapshots (*.csv *.db *.pickle *.pkl);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="39"/>
        <source>Compare with memory dump</source>
        <translation>Compare with memory dump</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="53"/>
        <source>Memory timeline</source>
        <translation>Memory timeline</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="76"/>
        <source>Opening %1…</source>
        <translation>Opening %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="103"/>
        <source>Cannot open %1</source>
        <translation>Cannot open %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/studio/mainwindow_memory.cpp" line="122"/>
        <source>%n operator(s) in the selected range</source>
        <translation>
            <numerusform>%n operator in the selected range</numerusform>
            <numerusform>%n operators in the selected range</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/studio/mainwindow_memory.cpp" line="130"/>
        <source>%n operator(s) in the selected range; %1 graph node(s) call them</source>
        <translation>
            <numerusform>%n operator in the selected range; %1 graph node(s) call it</numerusform>
            <numerusform>%n operators in the selected range; %1 graph node(s) call them</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="168"/>
        <source>No memory dump is open</source>
        <translation>No memory dump is open</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="171"/>
        <source>The memory panel has nothing to export</source>
        <translation>The memory panel has nothing to export</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="174"/>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="180"/>
        <source>Export memory panel as CSV</source>
        <translation>Export memory panel as CSV</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="180"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV files (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="29"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="103"/>
        <source>Trend</source>
        <translation>Trend</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="36"/>
        <source>Opening trend data %1…</source>
        <translation>Opening trend data %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="44"/>
        <source>Trend data: %1</source>
        <translation>Trend data: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="52"/>
        <source>Trend: %1 vs %2</source>
        <translation>Trend: %1 vs %2</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="52"/>
        <source>Trend: %1</source>
        <translation>Trend: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="62"/>
        <source>Opening trend data cancelled.</source>
        <translation>Opening trend data cancelled.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="64"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="65"/>
        <source>Could not open the trend data</source>
        <translation>Could not open the trend data</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="79"/>
        <source>Open trend database</source>
        <translation>Open trend database</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="80"/>
        <source>Trend databases (*.trend.db);;All files (*)</source>
        <translation>Trend databases (*.trend.db);;All files (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="89"/>
        <source>%1: no trend database is open</source>
        <translation>%1: no trend database is open</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="106"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="109"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="112"/>
        <source>Cannot write %1</source>
        <translation>Cannot write %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="116"/>
        <source>%1: the file name must end in .png, .svg or .csv</source>
        <translation>%1: the file name must end in .png, .svg or .csv</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="122"/>
        <source>No trend database is open.</source>
        <translation>No trend database is open.</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="125"/>
        <source>Export trend panel</source>
        <translation>Export trend panel</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="126"/>
        <source>PNG image (*.png);;SVG drawing (*.svg);;CSV of the heat-map cells (*.csv)</source>
        <translation>PNG image (*.png);;SVG drawing (*.svg);;CSV of the heat-map cells (*.csv)</translation>
    </message>
</context>
<context>
    <name>MatchController</name>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="100"/>
        <source>Match %1 with %2</source>
        <translation>Match %1 with %2</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="112"/>
        <source>Unmatch %1</source>
        <translation>Unmatch %1</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="124"/>
        <source>Apply %1</source>
        <translation>Apply %1</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="144"/>
        <source>No compare graph is open for matching.</source>
        <translation>No compare graph is open for matching.</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="148"/>
        <source>A match is still being computed; try again when it is done.</source>
        <translation>A match is still being computed; try again when it is done.</translation>
    </message>
</context>
<context>
    <name>MemoryComparePanel</name>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Only in</source>
        <translation>Only in</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Size</source>
        <translation>Size</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Owner</source>
        <translation>Owner</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Allocated</source>
        <translation>Allocated</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Why highlighted</source>
        <translation>Why highlighted</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="40"/>
        <source>Run A:</source>
        <translation>Run A:</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="42"/>
        <source>Run B:</source>
        <translation>Run B:</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="68"/>
        <source>%1 — whole capture</source>
        <translation>%1 — whole capture</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="71"/>
        <source>%1 — step %2</source>
        <translation>%1 — step %2</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="103"/>
        <source>Open a memory dump, then compare two of its steps or a second dump (File → Compare with memory dump…).</source>
        <translation>Open a memory dump, then compare two of its steps or a second dump (File → Compare with memory dump…).</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="120"/>
        <source>Peak A %1 at %2, peak B %3 at %4: B − A = %5. Live only at B&apos;s peak: %6 in %7 blocks; only at A&apos;s: %8 in %9 blocks (blocks matched by allocating operator, owner and size).</source>
        <translation>Peak A %1 at %2, peak B %3 at %4: B − A = %5. Live only at B&apos;s peak: %6 in %7 blocks; only at A&apos;s: %8 in %9 blocks (blocks matched by allocating operator, owner and size).</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="132"/>
        <source>B (adds)</source>
        <translation>B (adds)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="132"/>
        <source>A (removes)</source>
        <translation>A (removes)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="133"/>
        <source>(no operator)</source>
        <translation>(no operator)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="134"/>
        <source>(untagged)</source>
        <translation>(untagged)</translation>
    </message>
</context>
<context>
    <name>MemoryDiffChart</name>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="69"/>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="70"/>
        <source>A: %1 live at most</source>
        <translation>A: %1 live at most</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="70"/>
        <source>A: not run</source>
        <translation>A: not run</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="71"/>
        <source>B: %1 live at most</source>
        <translation>B: %1 live at most</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="71"/>
        <source>B: not run</source>
        <translation>B: not run</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="73"/>
        <source>B - A: %1</source>
        <translation>B - A: %1</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="84"/>
        <source>No outermost operators in either run to align</source>
        <translation>No outermost operators in either run to align</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="101"/>
        <source>B - A</source>
        <translation>B - A</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="142"/>
        <source>A: most live bytes per operator</source>
        <translation>A: most live bytes per operator</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="143"/>
        <source>B: most live bytes per operator</source>
        <translation>B: most live bytes per operator</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="144"/>
        <source>B needs more</source>
        <translation>B needs more</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="145"/>
        <source>B needs less</source>
        <translation>B needs less</translation>
    </message>
</context>
<context>
    <name>MemoryMinimap</name>
    <message>
        <location filename="../views/memory/memoryminimap.cpp" line="21"/>
        <source>The whole capture: click to go there, drag to move the shown range, wheel to zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memoryminimap.cpp" line="105"/>
        <source>overview</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="39"/>
        <source>Owner</source>
        <translation>Owner</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="39"/>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="39"/>
        <source>Blocks</source>
        <translation>Blocks</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="71"/>
        <source>Density</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="74"/>
        <source>Where blocks are narrower than a pixel, show how full each byte band of the stack is (pale: a few bytes live, dark: all of them) rather than the extent of the blocks, so fragmentation shows without zooming.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="81"/>
        <source>Blocks stay in place</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="82"/>
        <source>Blocks slide down (memory_viz)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="83"/>
        <source>Stay in place: each block keeps its place for its whole life, so the gaps freed blocks leave show fragmentation. Slide down: the live blocks are stacked in allocation order with no gap, and when one is freed the blocks above it slide down, as PyTorch&apos;s memory_viz draws them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="100"/>
        <source>Timeline</source>
        <translation>Timeline</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="101"/>
        <source>Compare runs</source>
        <translation>Compare runs</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="150"/>
        <source>%1 — %2 blocks, %3 steps, %4 operators; peak %5 live at %6; %7 step leaks, %8 blocks alive at the end, %9 inefficient. Wheel: zoom, drag: pan, double click: whole capture.</source>
        <translation>%1 — %2 blocks, %3 steps, %4 operators; peak %5 live at %6; %7 step leaks, %8 blocks alive at the end, %9 inefficient. Wheel: zoom, drag: pan, double click: whole capture.</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="181"/>
        <source>Live at %1: %2 in %3 blocks, by owner</source>
        <translation>Live at %1: %2 in %3 blocks, by owner</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="193"/>
        <source>(untagged)</source>
        <translation>(untagged)</translation>
    </message>
</context>
<context>
    <name>MemoryTimelineView</name>
    <message>
        <location filename="../views/memory/memorytimelineview.cpp" line="310"/>
        <source>Open a memory dump (File → Open memory dump…)</source>
        <translation>Open a memory dump (File → Open memory dump…)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinerender.cpp" line="176"/>
        <source>peak %1 at %2</source>
        <translation>peak %1 at %2</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="63"/>
        <source>steps</source>
        <translation>steps</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="64"/>
        <source>operators</source>
        <translation>operators</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="74"/>
        <source>marks</source>
        <translation>marks</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/memory/memorytimelinedecor.cpp" line="136"/>
        <source>block (%Ln blocks)</source>
        <translation>
            <numerusform>block (%Ln blocks)</numerusform>
            <numerusform>block (%Ln blocks)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="139"/>
        <source>sub-pixel blocks: share of each byte band live, 0–100 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="139"/>
        <source>band live 0–100 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="140"/>
        <source>step leak</source>
        <translation>step leak</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="141"/>
        <source>alive at the end (never freed)</source>
        <translation>alive at the end (never freed)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="141"/>
        <source>alive at the end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="142"/>
        <source>inefficient (early, late or idle)</source>
        <translation>inefficient (early, late or idle)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="142"/>
        <source>inefficient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="143"/>
        <source>live bytes (max per pixel)</source>
        <translation>live bytes (max per pixel)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="143"/>
        <source>live bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="145"/>
        <source>HAL blocks (no pool rows)</source>
        <translation>HAL blocks (no pool rows)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="145"/>
        <source>HAL blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedensity.cpp" line="173"/>
        <source>Bytes %1 – %2 of the stack: %3 % live on average over this pixel column</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NodeDetailsModel</name>
    <message>
        <location filename="../views/details/nodedetailsmodel.cpp" line="96"/>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailsmodel.cpp" line="96"/>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
</context>
<context>
    <name>NodeDetailsPanel</name>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="36"/>
        <source>Copy</source>
        <translation>Copy</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="64"/>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="65"/>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="66"/>
        <source>&lt;span style=&quot;color:#808080&quot;&gt;grey&lt;/span&gt;: no item at the same position on the other side</source>
        <translation>&lt;span style=&quot;color:#808080&quot;&gt;grey&lt;/span&gt;: no item at the same position on the other side</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="78"/>
        <location filename="../views/details/nodedetailspanel.cpp" line="107"/>
        <source>Comparison details</source>
        <translation>Comparison details</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="82"/>
        <source>Debug stack</source>
        <translation>Debug stack</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="83"/>
        <source>Bench stack</source>
        <translation>Bench stack</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="85"/>
        <source>Parallel merged info</source>
        <translation>Parallel merged info</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="86"/>
        <source>Communication peers (double-click to go)</source>
        <translation>Communication peers (double-click to go)</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="89"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="89"/>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="89"/>
        <source>Peer index</source>
        <translation>Peer index</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="94"/>
        <source>Node information</source>
        <translation>Node information</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="107"/>
        <source>Input/Output details</source>
        <translation>Input/Output details</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="187"/>
        <source>Debug node: %1    Bench node: %2</source>
        <translation>Debug node: %1    Bench node: %2</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="188"/>
        <source>(none)</source>
        <translation>(none)</translation>
    </message>
</context>
<context>
    <name>NodeListPanel</name>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="47"/>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="47"/>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="51"/>
        <source>Search node names</source>
        <translation>Search node names</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="53"/>
        <source>Regex</source>
        <translation>Regex</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="60"/>
        <source>Precision (leaf debug nodes)</source>
        <translation>Precision (leaf debug nodes)</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="62"/>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="63"/>
        <source>Warning</source>
        <translation>Warning</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="64"/>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="65"/>
        <source>Unmatched</source>
        <translation>Unmatched</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="66"/>
        <source>Overflow</source>
        <translation>Overflow</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="69"/>
        <source>Medium</source>
        <translation>Medium</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="70"/>
        <source>High</source>
        <translation>High</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="71"/>
        <source>Critical</source>
        <translation>Critical</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="81"/>
        <source>Previous node</source>
        <translation>Previous node</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="85"/>
        <source>Next node</source>
        <translation>Next node</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="182"/>
        <source>Node list (%1)</source>
        <translation>Node list (%1)</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="183"/>
        <source>Invalid regular expression</source>
        <translation>Invalid regular expression</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="214"/>
        <source>Top of the list</source>
        <translation>Top of the list</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="218"/>
        <source>Bottom of the list</source>
        <translation>Bottom of the list</translation>
    </message>
</context>
<context>
    <name>NodeMatchPanel</name>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="42"/>
        <source>Match configuration file</source>
        <translation>Match configuration file</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="45"/>
        <source>Apply</source>
        <translation>Apply</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="46"/>
        <source>Generate match configuration file</source>
        <translation>Generate match configuration file</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="57"/>
        <source>Debug unmatched</source>
        <translation>Debug unmatched</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="58"/>
        <source>Bench unmatched</source>
        <translation>Bench unmatched</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="59"/>
        <location filename="../views/match/nodematchpanel.cpp" line="65"/>
        <source>Simultaneously operate descendant nodes</source>
        <translation>Simultaneously operate descendant nodes</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="60"/>
        <source>Match</source>
        <translation>Match</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="61"/>
        <source>Match nodes</source>
        <translation>Match nodes</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="63"/>
        <source>Debug matched</source>
        <translation>Debug matched</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="64"/>
        <source>Bench matched</source>
        <translation>Bench matched</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="66"/>
        <source>Unmatch</source>
        <translation>Unmatch</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="67"/>
        <source>Unmatch nodes</source>
        <translation>Unmatch nodes</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="88"/>
        <source>total %1 / success %2 / failed %3</source>
        <translation>total %1 / success %2 / failed %3</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="156"/>
        <source>Pick a debug node and a bench node to match.</source>
        <translation>Pick a debug node and a bench node to match.</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="166"/>
        <source>Pick a matched debug node to unmatch.</source>
        <translation>Pick a matched debug node to unmatch.</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="176"/>
        <source>No .vis.config file beside the database.</source>
        <translation>No .vis.config file beside the database.</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="185"/>
        <source>Written %1</source>
        <translation>Written %1</translation>
    </message>
</context>
<context>
    <name>NodePickList</name>
    <message>
        <location filename="../views/match/nodepicklist.cpp" line="25"/>
        <source>Search</source>
        <translation>Search</translation>
    </message>
</context>
<context>
    <name>PairDialog</name>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="24"/>
        <source>Open problem/bench pair</source>
        <translation>Open problem/bench pair</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="26"/>
        <source>&amp;Problem dump:</source>
        <translation>&amp;Problem dump:</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="26"/>
        <source>Problem (debug) dump folder</source>
        <translation>Problem (debug) dump folder</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="27"/>
        <source>&amp;Bench dump:</source>
        <translation>&amp;Bench dump:</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="27"/>
        <source>Benchmark dump folder</source>
        <translation>Benchmark dump folder</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="28"/>
        <source>&amp;Output folder:</source>
        <translation>&amp;Output folder:</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="28"/>
        <source>Folder for the vis.db</source>
        <translation>Folder for the vis.db</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="29"/>
        <source>a new folder in the cache</source>
        <translation>a new folder in the cache</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="32"/>
        <source>&amp;Fuzzy match (-fm): ignore call counters inside matched modules</source>
        <translation>&amp;Fuzzy match (-fm): ignore call counters inside matched modules</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="33"/>
        <source>O&amp;verflow check (-oc): grade NaN/Inf anomalies</source>
        <translation>O&amp;verflow check (-oc): grade NaN/Inf anomalies</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="57"/>
        <source>Browse…</source>
        <translation>Browse…</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="80"/>
        <source>Choose the %1 folder.</source>
        <translation>Choose the %1 folder.</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="83"/>
        <source>The %1 folder does not exist: %2</source>
        <translation>The %1 folder does not exist: %2</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="85"/>
        <source>The %1 path is not a folder: %2</source>
        <translation>The %1 path is not a folder: %2</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="88"/>
        <source>problem dump</source>
        <translation>problem dump</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="90"/>
        <source>bench dump</source>
        <translation>bench dump</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="94"/>
        <source>The layer mapping is not a file: %1</source>
        <translation>The layer mapping is not a file: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="100"/>
        <source>Parallel &amp;merge: one graph per data-parallel copy (--rank_size, --tp, --pp, --vpp, --order)</source>
        <translation>Parallel &amp;merge: one graph per data-parallel copy (--rank_size, --tp, --pp, --vpp, --order)</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="104"/>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="105"/>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>Ranks (--rank_size):</source>
        <translation>Ranks (--rank_size):</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>TP (--tp):</source>
        <translation>TP (--tp):</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>PP (--pp):</source>
        <translation>PP (--pp):</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>VPP (--vpp):</source>
        <translation>VPP (--vpp):</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>Order (--order):</source>
        <translation>Order (--order):</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="30"/>
        <source>&amp;Layer mapping:</source>
        <translation>&amp;Layer mapping:</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="30"/>
        <source>Layer mapping YAML (-lm)</source>
        <translation>Layer mapping YAML (-lm)</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="30"/>
        <source>YAML files (*.yaml *.yml)</source>
        <translation>YAML files (*.yaml *.yml)</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="31"/>
        <source>optional: a YAML file mapping renamed layers (-lm)</source>
        <translation>optional: a YAML file mapping renamed layers (-lm)</translation>
    </message>
</context>
<context>
    <name>ParallelConfigDialog</name>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="37"/>
        <source>Parallel configuration</source>
        <translation>Parallel configuration</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="48"/>
        <source>none (no virtual pipeline)</source>
        <translation>none (no virtual pipeline)</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="52"/>
        <source>Embedding on a stage of its own (--standalone_embedding_stage)</source>
        <translation>Embedding on a stage of its own (--standalone_embedding_stage)</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="53"/>
        <source>&amp;World size:</source>
        <translation>&amp;World size:</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="54"/>
        <source>&amp;Layers:</source>
        <translation>&amp;Layers:</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="55"/>
        <source>&amp;Tensor parallel (TP):</source>
        <translation>&amp;Tensor parallel (TP):</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="56"/>
        <source>&amp;Pipeline parallel (PP):</source>
        <translation>&amp;Pipeline parallel (PP):</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="57"/>
        <source>Layers per &amp;virtual stage:</source>
        <translation>Layers per &amp;virtual stage:</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="58"/>
        <source>&amp;Order:</source>
        <translation>&amp;Order:</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="142"/>
        <source>DP %1, VPP %2, %3 TP groups; the CLI&apos;s picture: %4</source>
        <translation>DP %1, VPP %2, %3 TP groups; the CLI&apos;s picture: %4</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="155"/>
        <source>The dumps&apos; group_ranks [%1] is not a TP group of this configuration; check the order.</source>
        <translation>The dumps&apos; group_ranks [%1] is not a TP group of this configuration; check the order.</translation>
    </message>
</context>
<context>
    <name>ParallelGrid</name>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="71"/>
        <source>PP stage %1: %2 TP groups</source>
        <translation>PP stage %1: %2 TP groups</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="102"/>
        <source>embedding</source>
        <translation>embedding</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="104"/>
        <source>layers %1–%2</source>
        <translation>layers %1–%2</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="106"/>
        <source>output layer</source>
        <translation>output layer</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="107"/>
        <source>nothing (an empty chunk)</source>
        <translation>nothing (an empty chunk)</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="111"/>
        <source>Ranks %1 (%2 TP groups)</source>
        <translation>Ranks %1 (%2 TP groups)</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="112"/>
        <source>PP stage %1, every DP copy (1–%2)</source>
        <translation>PP stage %1, every DP copy (1–%2)</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="114"/>
        <source>Ranks %1 (TP group %2)</source>
        <translation>Ranks %1 (TP group %2)</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="115"/>
        <source>PP stage %1, DP copy %2 of %3</source>
        <translation>PP stage %1, DP copy %2 of %3</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="117"/>
        <source>Virtual stage %1: %2</source>
        <translation>Virtual stage %1: %2</translation>
    </message>
</context>
<context>
    <name>ParallelPanel</name>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="19"/>
        <source>Colour by compare result</source>
        <translation>Colour by compare result</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="20"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="25"/>
        <source>Configure…</source>
        <translation>Configure…</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="26"/>
        <source>World size, layers, TP, PP, VPP, order and standalone embedding stage, as msprobe parallel_plot takes them</source>
        <translation>World size, layers, TP, PP, VPP, order and standalone embedding stage, as msprobe parallel_plot takes them</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="27"/>
        <source>Fit</source>
        <translation>Fit</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="28"/>
        <source>Fit the grid to the panel (0); the wheel zooms, dragging pans</source>
        <translation>Fit the grid to the panel (0); the wheel zooms, dragging pans</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="29"/>
        <source>Fill each block with the worst compare Result of its ranks at the focused step; the copy colour stays as a band</source>
        <translation>Fill each block with the worst compare Result of its ranks at the focused step; the copy colour stays as a band</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="30"/>
        <source>Save the grid as PNG or SVG</source>
        <translation>Save the grid as PNG or SVG</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="68"/>
        <source>The dumps tell: %1. Give the rest with Configure….</source>
        <translation>The dumps tell: %1. Give the rest with Configure….</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="86"/>
        <source>From the dumps: %1</source>
        <translation>From the dumps: %1</translation>
    </message>
</context>
<context>
    <name>ParallelSetup</name>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="310"/>
        <source>No configuration: set one with Configure…</source>
        <translation>No configuration: set one with Configure…</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="312"/>
        <source>From the graph&apos;s parallel-merge flags.</source>
        <translation>From the graph&apos;s parallel-merge flags.</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="315"/>
        <source>Read from the dumps.</source>
        <translation>Read from the dumps.</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="318"/>
        <source>As last set for this input.</source>
        <translation>As last set for this input.</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="321"/>
        <source>As set in Configure….</source>
        <translation>As set in Configure….</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="324"/>
        <source>From the command line.</source>
        <translation>From the command line.</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="351"/>
        <source>order %1: the first that makes that group a TP group</source>
        <translation>order %1: the first that makes that group a TP group</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="354"/>
        <source>no order of tp, dp and pp makes that group a TP group: check the configuration</source>
        <translation>no order of tp, dp and pp makes that group a TP group: check the configuration</translation>
    </message>
</context>
<context>
    <name>ParallelView</name>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="51"/>
        <source>pass</source>
        <translation>pass</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="53"/>
        <source>warning</source>
        <translation>warning</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="55"/>
        <source>error</source>
        <translation>error</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="59"/>
        <source>not compared</source>
        <translation>not compared</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="224"/>
        <source>No parallel configuration. Use Configure… to give world size, layers, TP, PP and VPP, or open dumps that carry them.</source>
        <translation>No parallel configuration. Use Configure… to give world size, layers, TP, PP and VPP, or open dumps that carry them.</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="266"/>
        <source>Virtual Pipeline Stage</source>
        <translation>Virtual Pipeline Stage</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="270"/>
        <source>PP stage</source>
        <translation>PP stage</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="270"/>
        <source>TP Group</source>
        <translation>TP Group</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="357"/>
        <source>Model Copies</source>
        <translation>Model Copies</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="371"/>
        <source>… %1 more</source>
        <translation>… %1 more</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="371"/>
        <source>Model Copy %1</source>
        <translation>Model Copy %1</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="374"/>
        <source>Compare result</source>
        <translation>Compare result</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="466"/>
        <source>Select rank</source>
        <translation>Select rank</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="470"/>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="476"/>
        <source>Fit to view</source>
        <translation>Fit to view</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="504"/>
        <source>Compare: %1 (worst of its ranks)</source>
        <translation>Compare: %1 (worst of its ranks)</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="533"/>
        <source>%1: there is no parallel configuration to draw</source>
        <translation>%1: there is no parallel configuration to draw</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="543"/>
        <location filename="../views/parallel/parallelview.cpp" line="547"/>
        <location filename="../views/parallel/parallelview.cpp" line="552"/>
        <source>Cannot write %1</source>
        <translation>Cannot write %1</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/studio/reportexport.cpp" line="59"/>
        <source>There is no comparison to export.</source>
        <translation>There is no comparison to export.</translation>
    </message>
    <message>
        <location filename="../app/studio/reportexport.cpp" line="66"/>
        <source>There is no comparison for step %1, rank %2 to export.</source>
        <translation>There is no comparison for step %1, rank %2 to export.</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="39"/>
        <source>%1 does not exist.</source>
        <translation>%1 does not exist.</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="52"/>
        <source>Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).</source>
        <translation>Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="50"/>
        <source>world_size, tp, pp, vpp and order: the graph&apos;s parallel-merge flags (--rank_size %1 --tp %2 --pp %3 --vpp %4 --order %5)</source>
        <translation>world_size, tp, pp, vpp and order: the graph&apos;s parallel-merge flags (--rank_size %1 --tp %2 --pp %3 --vpp %4 --order %5)</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="139"/>
        <source>world_size %1: the rank folders of the dump</source>
        <translation>world_size %1: the rank folders of the dump</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="142"/>
        <source>world_size %1: the ranks opened</source>
        <translation>world_size %1: the ranks opened</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="165"/>
        <source>%1 (step %2, rank %3 of the graph)</source>
        <translation>%1 (step %2, rank %3 of the graph)</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="175"/>
        <source>tp %1: group_ranks %2 of the first reduce_scatter/all_reduce in %3</source>
        <translation>tp %1: group_ranks %2 of the first reduce_scatter/all_reduce in %3</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="188"/>
        <source>num_layers %1: the layers.N modules of the merged graph</source>
        <translation>num_layers %1: the layers.N modules of the merged graph</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="189"/>
        <source>num_layers %1: %2 layers.N modules in a rank&apos;s graph × pp %3</source>
        <translation>num_layers %1: %2 layers.N modules in a rank&apos;s graph × pp %3</translation>
    </message>
</context>
<context>
    <name>RecentFiles</name>
    <message>
        <location filename="../app/studio/recentfiles.cpp" line="49"/>
        <source> vs </source>
        <translation> vs </translation>
    </message>
    <message>
        <location filename="../app/studio/recentfiles.cpp" line="54"/>
        <source>Clear the list</source>
        <translation>Clear the list</translation>
    </message>
</context>
<context>
    <name>StudioSession</name>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="102"/>
        <source>%1 vs %2</source>
        <translation>%1 vs %2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="195"/>
        <source>No model graph for this dump: %1</source>
        <translation>No model graph for this dump: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="213"/>
        <source>Graph: %1</source>
        <translation>Graph: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="228"/>
        <source>Compare: %1</source>
        <translation>Compare: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="252"/>
        <source>Dump summary: %1</source>
        <translation>Dump summary: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="357"/>
        <source>No compare graph is open for matching.</source>
        <translation>No compare graph is open for matching.</translation>
    </message>
</context>
<context>
    <name>StudioVerdict</name>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="50"/>
        <source>First divergence: %1 — why: %2</source>
        <translation>First divergence: %1 — why: %2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="52"/>
        <source>No divergence: every entry stays within tolerance</source>
        <translation>No divergence: every entry stays within tolerance</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="54"/>
        <source>NaN/Inf first at %1</source>
        <translation>NaN/Inf first at %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="56"/>
        <source>1 row unpaired</source>
        <translation>1 row unpaired</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="57"/>
        <source>%1 rows unpaired</source>
        <translation>%1 rows unpaired</translation>
    </message>
</context>
<context>
    <name>TrendHeatmap</name>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="113"/>
        <source>first divergence</source>
        <translation>first divergence</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="182"/>
        <location filename="../views/trend/trendheatmap.cpp" line="286"/>
        <source>relative difference</source>
        <translation>relative difference</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="274"/>
        <source>no data (no row)</source>
        <translation>no data (no row)</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="277"/>
        <source>no data (NULL: NaN in the run)</source>
        <translation>no data (NULL: NaN in the run)</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="286"/>
        <source>value</source>
        <translation>value</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="288"/>
        <source>first divergence of this target</source>
        <translation>first divergence of this target</translation>
    </message>
</context>
<context>
    <name>TrendLineChart</name>
    <message>
        <location filename="../views/trend/trendlinechart.cpp" line="242"/>
        <source>NULL (NaN)</source>
        <translation>NULL (NaN)</translation>
    </message>
</context>
<context>
    <name>TrendPanel</name>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="189"/>
        <source>Metric</source>
        <translation>Metric</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="190"/>
        <source>Statistic</source>
        <translation>Statistic</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="191"/>
        <source>Dimension</source>
        <translation>Dimension</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="192"/>
        <source>Value</source>
        <translation>Value</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="193"/>
        <source>Tags (all must match)</source>
        <translation>Tags (all must match)</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="194"/>
        <source>Heat-map mode</source>
        <translation>Heat-map mode</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="195"/>
        <location filename="../views/trend/trendpanel.cpp" line="398"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="196"/>
        <location filename="../views/trend/trendpanel.cpp" line="398"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="197"/>
        <source>Module name</source>
        <translation>Module name</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="198"/>
        <source>Continuous</source>
        <translation>Continuous</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="199"/>
        <source>Piecewise (3-sigma)</source>
        <translation>Piecewise (3-sigma)</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="200"/>
        <source>Filter tags…</source>
        <translation>Filter tags…</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="201"/>
        <source>Difference (problem vs bench)</source>
        <translation>Difference (problem vs bench)</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="202"/>
        <source>Grey cells: no data (no row, or NULL: NaN in the run). Click a cell for its line; wheel zooms, drag pans.</source>
        <translation>Grey cells: no data (no row, or NULL: NaN in the run). Click a cell for its line; wheel zooms, drag pans.</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="203"/>
        <source>Clear lines</source>
        <translation>Clear lines</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="204"/>
        <source>Export…</source>
        <translation>Export…</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="205"/>
        <source>No trend database open. Use File &gt; Open trend database…, or drop a *.trend.db, a monitor output folder or a dump folder here (two: problem and bench).</source>
        <translation>No trend database open. Use File &gt; Open trend database…, or drop a *.trend.db, a monitor output folder or a dump folder here (two: problem and bench).</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="327"/>
        <source>%1 (category %2)</source>
        <translation>%1 (category %2)</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="398"/>
        <source>Target id</source>
        <translation>Target id</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="405"/>
        <source>%1: no divergence over %2 series (tolerance %3).</source>
        <translation>%1: no divergence over %2 series (tolerance %3).</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="408"/>
        <source>First divergence (%1): %2 %3, rank %4, step %5, relative difference %6. Marked cells: each target&apos;s first divergent step.</source>
        <translation>First divergence (%1): %2 %3, rank %4, step %5, relative difference %6. Marked cells: each target&apos;s first divergent step.</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="401"/>
        <source>Could not read the heat map: %1</source>
        <translation>Could not read the heat map: %1</translation>
    </message>
</context>
<context>
    <name>TrendSource</name>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="135"/>
        <source>%1 vs %2</source>
        <translation>%1 vs %2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="178"/>
        <source>importing %1: %2 of %3</source>
        <translation>importing %1: %2 of %3</translation>
    </message>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="385"/>
        <source>problem %1</source>
        <translation>problem %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="416"/>
        <source>bench %1</source>
        <translation>bench %1</translation>
    </message>
</context>
<context>
    <name>VerdictBar</name>
    <message>
        <location filename="../views/verdictbar.cpp" line="31"/>
        <source>Click to select %1</source>
        <translation>Click to select %1</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="40"/>
        <source>msprobe studio</source>
        <translation>msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="41"/>
        <source>Compare a problem run with a bench run: graphs, the compare table and where they first diverge.
You can also drop a dump folder, two folders, a vis.db or a compare CSV on this window.</source>
        <translation>Compare a problem run with a bench run: graphs, the compare table and where they first diverge.
You can also drop a dump folder, two folders, a vis.db or a compare CSV on this window.</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="50"/>
        <source>Open a dump folder…</source>
        <translation>Open a dump folder…</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="51"/>
        <source>Open a problem/bench pair…</source>
        <translation>Open a problem/bench pair…</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="56"/>
        <source>Open the bundled sample pair</source>
        <translation>Open the bundled sample pair</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="78"/>
        <source>Open recent</source>
        <translation>Open recent</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="83"/>
        <source> vs </source>
        <translation> vs </translation>
    </message>
</context>
<context>
    <name>headlessexport</name>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="63"/>
        <location filename="../app/studio/headlessexport.cpp" line="66"/>
        <location filename="../app/studio/headlessexport.cpp" line="68"/>
        <source>Cannot write %1</source>
        <translation>Cannot write %1</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="74"/>
        <source>%1: no verdict to write; a JSON export needs a problem/bench pair of dump folders (not a vis.db or a CSV).</source>
        <translation>%1: no verdict to write; a JSON export needs a problem/bench pair of dump folders (not a vis.db or a CSV).</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="109"/>
        <source>%1: --view parallel writes .png or .svg</source>
        <translation>%1: --view parallel writes .png or .svg</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="159"/>
        <source>--view parallel needs --world_size and --num_layers (the inputs do not give them)</source>
        <translation>--view parallel needs --world_size and --num_layers (the inputs do not give them)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="165"/>
        <source>--vpp %1: the %2 layers do not split into %3 pipeline stage(s) of %1 virtual stage(s)</source>
        <translation>--vpp %1: the %2 layers do not split into %3 pipeline stage(s) of %1 virtual stage(s)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="179"/>
        <source>parallel configuration: %1</source>
        <translation>parallel configuration: %1</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="209"/>
        <source>--step and --rank go together</source>
        <translation>--step and --rank go together</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="214"/>
        <source>give one input (a dump folder, dump.json, .vis.db or compare CSV) or two dump folders (problem, bench)</source>
        <translation>give one input (a dump folder, dump.json, .vis.db or compare CSV) or two dump folders (problem, bench)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="131"/>
        <location filename="../app/studio/headlessexport.cpp" line="230"/>
        <source>%1: loading took too long</source>
        <translation>%1: loading took too long</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="89"/>
        <source>--view memory takes one input: a msMemScope dump (.csv or .db)</source>
        <translation>--view memory takes one input: a msMemScope dump (.csv or .db)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="119"/>
        <source>%1: the trend view exports .png, .svg or .csv</source>
        <translation>%1: the trend view exports .png, .svg or .csv</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="121"/>
        <source>give one input (a *.trend.db, a monitor or dump folder) or two (problem, bench)</source>
        <translation>give one input (a *.trend.db, a monitor or dump folder) or two (problem, bench)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="133"/>
        <location filename="../app/studio/headlessexport.cpp" line="232"/>
        <source>loading was cancelled</source>
        <translation>loading was cancelled</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="196"/>
        <source>%1: unknown export format; the file name must end in .png, .svg, .html or .json (or .csv with --view trend)</source>
        <translation>%1: unknown export format; the file name must end in .png, .svg, .html or .json (or .csv with --view trend)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="199"/>
        <source>%1: the memory view exports as .png or .svg</source>
        <translation>%1: the memory view exports as .png or .svg</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="203"/>
        <source>--view %1: unknown view; use graph, compare, trend, parallel or memory</source>
        <translation>--view %1: unknown view; use graph, compare, trend, parallel or memory</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="207"/>
        <source>%1: a CSV export is the trend view&apos;s cells (--view trend)</source>
        <translation>%1: a CSV export is the trend view&apos;s cells (--view trend)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="239"/>
        <source>step %1, rank %2 is not in %3 (steps: %4; ranks: %5)</source>
        <translation>step %1, rank %2 is not in %3 (steps: %4; ranks: %5)</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="253"/>
        <source>%1: no comparison to report; an HTML export needs a problem/bench pair of dump folders.</source>
        <translation>%1: no comparison to report; an HTML export needs a problem/bench pair of dump folders.</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="259"/>
        <source>%1: step %2, rank %3 has no compare table</source>
        <translation>%1: step %2, rank %3 has no compare table</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="263"/>
        <source>%1: no graph for step %2, rank %3. %4</source>
        <translation>%1: no graph for step %2, rank %3. %4</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="266"/>
        <source>%1: laying out the graph took too long</source>
        <translation>%1: laying out the graph took too long</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/studio/main.cpp" line="76"/>
        <source>Numerical-accuracy workstation for msprobe dumps.</source>
        <translation>Numerical-accuracy workstation for msprobe dumps.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="80"/>
        <source>A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH.</source>
        <translation>A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="83"/>
        <source>Save a PNG of the window once loading is done, then quit (for docs and checks).</source>
        <translation>Save a PNG of the window once loading is done, then quit (for docs and checks).</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="87"/>
        <source>Open a msMemScope memory dump (.csv or .db) or a PyTorch memory snapshot (.pickle) in the memory timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="90"/>
        <source>With --memory: a second memory dump to compare it with (the memory panel&apos;s compare tab).</source>
        <translation>With --memory: a second memory dump to compare it with (the memory panel&apos;s compare tab).</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="94"/>
        <source>Open the input without a window, write FILE by its extension (.png, .svg: the view&apos;s picture; .html: the report; .json: the verdicts, as msprobe compare --json) and exit: 0 done, 1 failed.</source>
        <translation>Open the input without a window, write FILE by its extension (.png, .svg: the view&apos;s picture; .html: the report; .json: the verdicts, as msprobe compare --json) and exit: 0 done, 1 failed.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="97"/>
        <source>With --export: the view to draw, graph (default), compare, trend, parallel or memory. Without: parallel shows the parallelism panel in front.</source>
        <translation>With --export: the view to draw, graph (default), compare, trend, parallel or memory. Without: parallel shows the parallelism panel in front.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="99"/>
        <source>With --export: the step to show (with --rank).</source>
        <translation>With --export: the step to show (with --rank).</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="100"/>
        <source>With --export: the rank to show (with --step).</source>
        <translation>With --export: the rank to show (with --step).</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="103"/>
        <source>With --view parallel: the world size.</source>
        <translation>With --view parallel: the world size.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="104"/>
        <source>With --view parallel: the number of transformer layers.</source>
        <translation>With --view parallel: the number of transformer layers.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="106"/>
        <source>With --view parallel: the tensor-parallel size.</source>
        <translation>With --view parallel: the tensor-parallel size.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="108"/>
        <source>With --view parallel: the pipeline-parallel size.</source>
        <translation>With --view parallel: the pipeline-parallel size.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="110"/>
        <source>With --view parallel: layers per virtual pipeline stage.</source>
        <translation>With --view parallel: layers per virtual pipeline stage.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="112"/>
        <source>With --view parallel: the number of virtual pipeline stages (as graph_visualize --vpp).</source>
        <translation>With --view parallel: the number of virtual pipeline stages (as graph_visualize --vpp).</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="113"/>
        <source>With --view parallel: the rank order, e.g. tp-cp-ep-dp-pp.</source>
        <translation>With --view parallel: the rank order, e.g. tp-cp-ep-dp-pp.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="115"/>
        <source>With --view parallel: the embedding has a pipeline stage of its own.</source>
        <translation>With --view parallel: the embedding has a pipeline stage of its own.</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="134"/>
        <source>--%1 takes a whole number, not &apos;%2&apos;</source>
        <translation>--%1 takes a whole number, not &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="153"/>
        <source>--step and --rank take whole numbers</source>
        <translation>--step and --rank take whole numbers</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="160"/>
        <source>written %1</source>
        <translation>written %1</translation>
    </message>
</context>
</TS>
