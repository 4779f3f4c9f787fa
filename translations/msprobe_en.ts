<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>CompareTableView</name>
    <message>
        <source>Filter by NPU or bench name…</source>
        <translation>Filter by NPU or bench name…</translation>
    </message>
    <message>
        <source>All results</source>
        <translation>All results</translation>
    </message>
    <message>
        <source>Warning and error</source>
        <translation>Warning and error</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warning</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <source>%1 of %2 rows</source>
        <translation>%1 of %2 rows</translation>
    </message>
    <message>
        <source>All steps and ranks</source>
        <translation>All steps and ranks</translation>
    </message>
    <message>
        <source>Show the rows of every compared step and rank, with Step and Rank columns</source>
        <translation>Show the rows of every compared step and rank, with Step and Rank columns</translation>
    </message>
</context>
<context>
    <name>DumpSummaryModel</name>
    <message>
        <source>(single step)</source>
        <translation>(single step)</translation>
    </message>
    <message>
        <source>Step / rank</source>
        <translation>Step / rank</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>Entries</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Module</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>Backward</translation>
    </message>
    <message>
        <source>Param grads</source>
        <translation>Param grads</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>Tensors</translation>
    </message>
    <message>
        <source>NaN/Inf</source>
        <translation>NaN/Inf</translation>
    </message>
    <message>
        <source>dump.json</source>
        <translation>dump.json</translation>
    </message>
</context>
<context>
    <name>GraphDiffView</name>
    <message>
        <source>Precision</source>
        <translation>Precision</translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation>Overflow</translation>
    </message>
    <message>
        <source>Colour nodes by precision level or by overflow level (needs a db made with -oc)</source>
        <translation>Colour nodes by precision level or by overflow level (needs a db made with -oc)</translation>
    </message>
    <message>
        <source>Sync expand</source>
        <translation>Sync expand</translation>
    </message>
    <message>
        <source>Expanding a node also expands its match on the other side</source>
        <translation>Expanding a node also expands its match on the other side</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Fit</translation>
    </message>
    <message>
        <source>Fit both graphs to the window</source>
        <translation>Fit both graphs to the window</translation>
    </message>
    <message>
        <source>First divergence</source>
        <translation>First divergence</translation>
    </message>
    <message>
        <source>Go to the first error-level node in execution order</source>
        <translation>Go to the first error-level node in execution order</translation>
    </message>
    <message>
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
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation>Laying out…</translation>
    </message>
    <message>
        <source>Locate matched node</source>
        <translation>Locate matched node</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>Collapse</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>Expand</translation>
    </message>
    <message>
        <source>Show details</source>
        <translation>Show details</translation>
    </message>
    <message>
        <source>Unmatch</source>
        <translation>Unmatch</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>Copy name</translation>
    </message>
    <message>
        <source>Nothing to export yet: the graph is not laid out</source>
        <translation>Nothing to export yet: the graph is not laid out</translation>
    </message>
    <message>
        <source>msprobe graph diff</source>
        <translation>msprobe graph diff</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>Cannot write %1</translation>
    </message>
    <message>
        <source>The picture is too large to render (%1 x %2)</source>
        <translation>The picture is too large to render (%1 x %2)</translation>
    </message>
    <message>
        <source>Data send</source>
        <translation>Data send</translation>
    </message>
    <message>
        <source>Data receive</source>
        <translation>Data receive</translation>
    </message>
    <message>
        <source>Data send-receive</source>
        <translation>Data send-receive</translation>
    </message>
    <message>
        <source>Debug mini-map</source>
        <translation>Debug mini-map</translation>
    </message>
    <message>
        <source>Bench mini-map</source>
        <translation>Bench mini-map</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <source>Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: API list (standalone APIs between modules). Dotted box: multi collection (fused operators). A badge on a collapsed module counts the warnings and errors inside it, in the worst colour.</source>
        <translation>Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: API list (standalone APIs between modules). Dotted box: multi collection (fused operators). A badge on a collapsed module counts the warnings and errors inside it, in the worst colour.</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Module</translation>
    </message>
    <message>
        <source>Leaf</source>
        <translation>Leaf</translation>
    </message>
    <message>
        <source>API list</source>
        <translation>API list</translation>
    </message>
    <message>
        <source>Multi collection</source>
        <translation>Multi collection</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Medium</translation>
    </message>
    <message>
        <source>High</source>
        <translation>High</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Critical</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warning</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <source>No grade</source>
        <translation>No grade</translation>
    </message>
    <message>
        <source>Unmatched</source>
        <translation>Unmatched</translation>
    </message>
    <message>
        <source>A module or operator; double-click a module to expand it</source>
        <translation>A module or operator; double-click a module to expand it</translation>
    </message>
    <message>
        <source>An unexpanded node: it has no children, so it cannot be expanded</source>
        <translation>An unexpanded node: it has no children, so it cannot be expanded</translation>
    </message>
    <message>
        <source>A collection of standalone APIs between modules</source>
        <translation>A collection of standalone APIs between modules</translation>
    </message>
    <message>
        <source>A collection of fused operators</source>
        <translation>A collection of fused operators</translation>
    </message>
</context>
<context>
    <name>GraphMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>Overview: click or drag to move the view</translation>
    </message>
</context>
<context>
    <name>GraphSwitcher</name>
    <message>
        <source>Training step (Alt+Left / Alt+Right)</source>
        <translation>Training step (Alt+Left / Alt+Right)</translation>
    </message>
    <message>
        <source>Rank (Ctrl+PgUp / Ctrl+PgDown)</source>
        <translation>Rank (Ctrl+PgUp / Ctrl+PgDown)</translation>
    </message>
    <message>
        <source>Micro step: only the nodes of one micro batch</source>
        <translation>Micro step: only the nodes of one micro batch</translation>
    </message>
    <message>
        <source> Step </source>
        <translation> Step </translation>
    </message>
    <message>
        <source> Rank </source>
        <translation> Rank </translation>
    </message>
    <message>
        <source> Micro step </source>
        <translation> Micro step </translation>
    </message>
    <message>
        <source>All</source>
        <translation>All</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>msprobe studio</source>
        <translation>msprobe studio</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Loading %1…</translation>
    </message>
    <message>
        <source>Loading cancelled.</source>
        <translation>Loading cancelled.</translation>
    </message>
    <message>
        <source>%1 — msprobe studio</source>
        <translation>%1 — msprobe studio</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>Could not open %1</translation>
    </message>
    <message>
        <source>Open dump folder</source>
        <translation>Open dump folder</translation>
    </message>
    <message>
        <source>Stop loading (Esc)</source>
        <translation>Stop loading (Esc)</translation>
    </message>
    <message>
        <source>Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here).</source>
        <translation>Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here).</translation>
    </message>
    <message>
        <source>Search and filter</source>
        <translation>Search and filter</translation>
    </message>
    <message>
        <source>Graph diff view: not part of this build.</source>
        <translation>Graph diff view: not part of this build.</translation>
    </message>
    <message>
        <source>Node search and filters: not part of this build.</source>
        <translation>Node search and filters: not part of this build.</translation>
    </message>
    <message>
        <source>Node matching</source>
        <translation>Node matching</translation>
    </message>
    <message>
        <source>Node matching: not part of this build.</source>
        <translation>Node matching: not part of this build.</translation>
    </message>
    <message>
        <source>Dump summary</source>
        <translation>Dump summary</translation>
    </message>
    <message>
        <source>Compare table</source>
        <translation>Compare table</translation>
    </message>
    <message>
        <source>Node details</source>
        <translation>Node details</translation>
    </message>
    <message>
        <source>Node details: not part of this build.</source>
        <translation>Node details: not part of this build.</translation>
    </message>
    <message>
        <source>Matching failed</source>
        <translation>Matching failed</translation>
    </message>
    <message>
        <source>Open &amp;dump folder…</source>
        <translation>Open &amp;dump folder…</translation>
    </message>
    <message>
        <source>Open problem/bench &amp;pair…</source>
        <translation>Open problem/bench &amp;pair…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open &amp;vis.db…</source>
        <translation>Open &amp;vis.db…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>Open vis.db</source>
        <translation>Open vis.db</translation>
    </message>
    <message>
        <source>Graph databases (*.vis.db *.db);;All files (*)</source>
        <translation>Graph databases (*.vis.db *.db);;All files (*)</translation>
    </message>
    <message>
        <source>Open compare &amp;CSV…</source>
        <translation>Open compare &amp;CSV…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Open compare result</source>
        <translation>Open compare result</translation>
    </message>
    <message>
        <source>Compare results (*.csv);;All files (*)</source>
        <translation>Compare results (*.csv);;All files (*)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Open &amp;recent</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Export</translation>
    </message>
    <message>
        <source>Comparison as &amp;CSV…</source>
        <translation>Comparison as &amp;CSV…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Comparison as &amp;XLSX…</source>
        <translation>Comparison as &amp;XLSX…</translation>
    </message>
    <message>
        <source>&amp;HTML report…</source>
        <translation>&amp;HTML report…</translation>
    </message>
    <message>
        <source>Graph as &amp;PNG or SVG…</source>
        <translation>Graph as &amp;PNG or SVG…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Edit</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Undo</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Redo</translation>
    </message>
    <message>
        <source>&amp;Filter the compare table</source>
        <translation>&amp;Filter the compare table</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Main</translation>
    </message>
    <message>
        <source>&amp;Navigate</source>
        <translation>&amp;Navigate</translation>
    </message>
    <message>
        <source>&amp;Next rank</source>
        <translation>&amp;Next rank</translation>
    </message>
    <message>
        <source>Ctrl+PgDown</source>
        <translation>Ctrl+PgDown</translation>
    </message>
    <message>
        <source>&amp;Previous rank</source>
        <translation>&amp;Previous rank</translation>
    </message>
    <message>
        <source>Ctrl+PgUp</source>
        <translation>Ctrl+PgUp</translation>
    </message>
    <message>
        <source>Next &amp;step</source>
        <translation>Next &amp;step</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>P&amp;revious step</source>
        <translation>P&amp;revious step</translation>
    </message>
    <message>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <source>Go to first &amp;divergence</source>
        <translation>Go to first &amp;divergence</translation>
    </message>
    <message>
        <source>F3</source>
        <translation>F3</translation>
    </message>
    <message>
        <source>No error-level node in this graph.</source>
        <translation>No error-level node in this graph.</translation>
    </message>
    <message>
        <source>Cancel loading</source>
        <translation>Cancel loading</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>&amp;Dark theme</translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Language</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>System default</translation>
    </message>
    <message>
        <source>The language changes the next time msprobe studio starts.</source>
        <translation>The language changes the next time msprobe studio starts.</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>&amp;Reset layout</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Keyboard shortcuts</translation>
    </message>
    <message>
        <source>&amp;About msprobe studio</source>
        <translation>&amp;About msprobe studio</translation>
    </message>
    <message>
        <source>About msprobe studio</source>
        <translation>About msprobe studio</translation>
    </message>
    <message>
        <source>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, node matching and reports.</source>
        <translation>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, node matching and reports.</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>Cannot open</translation>
    </message>
    <message>
        <source>%p% — about %1 s left</source>
        <translation>%p% — about %1 s left</translation>
    </message>
    <message>
        <source>Loading: %1</source>
        <translation>Loading: %1</translation>
    </message>
    <message>
        <source> vs </source>
        <translation> vs </translation>
    </message>
    <message>
        <source>Opened %1 in %2 s.</source>
        <translation>Opened %1 in %2 s.</translation>
    </message>
    <message>
        <source>The graph view is not part of this build.</source>
        <translation>The graph view is not part of this build.</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel workbook (*.xlsx)</translation>
    </message>
    <message>
        <source>HTML report (*.html)</source>
        <translation>HTML report (*.html)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Export</translation>
    </message>
    <message>
        <source>Written %1</source>
        <translation>Written %1</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export failed</translation>
    </message>
    <message>
        <source>Export graph</source>
        <translation>Export graph</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG image (*.png);;SVG drawing (*.svg)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Keyboard shortcuts</translation>
    </message>
</context>
<context>
    <name>MatchController</name>
    <message>
        <source>Match %1 with %2</source>
        <translation>Match %1 with %2</translation>
    </message>
    <message>
        <source>Unmatch %1</source>
        <translation>Unmatch %1</translation>
    </message>
    <message>
        <source>Apply %1</source>
        <translation>Apply %1</translation>
    </message>
    <message>
        <source>No compare graph is open for matching.</source>
        <translation>No compare graph is open for matching.</translation>
    </message>
    <message>
        <source>A match is still being computed; try again when it is done.</source>
        <translation>A match is still being computed; try again when it is done.</translation>
    </message>
</context>
<context>
    <name>NodeDetailsModel</name>
    <message>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
</context>
<context>
    <name>NodeDetailsPanel</name>
    <message>
        <source>Copy</source>
        <translation>Copy</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#808080&quot;&gt;grey&lt;/span&gt;: no item at the same position on the other side</source>
        <translation>&lt;span style=&quot;color:#808080&quot;&gt;grey&lt;/span&gt;: no item at the same position on the other side</translation>
    </message>
    <message>
        <source>Comparison details</source>
        <translation>Comparison details</translation>
    </message>
    <message>
        <source>Debug stack</source>
        <translation>Debug stack</translation>
    </message>
    <message>
        <source>Bench stack</source>
        <translation>Bench stack</translation>
    </message>
    <message>
        <source>Parallel merged info</source>
        <translation>Parallel merged info</translation>
    </message>
    <message>
        <source>Communication peers (double-click to go)</source>
        <translation>Communication peers (double-click to go)</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Peer index</source>
        <translation>Peer index</translation>
    </message>
    <message>
        <source>Node information</source>
        <translation>Node information</translation>
    </message>
    <message>
        <source>Input/Output details</source>
        <translation>Input/Output details</translation>
    </message>
    <message>
        <source>Debug node: %1    Bench node: %2</source>
        <translation>Debug node: %1    Bench node: %2</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(none)</translation>
    </message>
</context>
<context>
    <name>NodeListPanel</name>
    <message>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <source>Bench</source>
        <translation>Bench</translation>
    </message>
    <message>
        <source>Search node names</source>
        <translation>Search node names</translation>
    </message>
    <message>
        <source>Regex</source>
        <translation>Regex</translation>
    </message>
    <message>
        <source>Precision (leaf debug nodes)</source>
        <translation>Precision (leaf debug nodes)</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warning</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <source>Unmatched</source>
        <translation>Unmatched</translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation>Overflow</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Medium</translation>
    </message>
    <message>
        <source>High</source>
        <translation>High</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Critical</translation>
    </message>
    <message>
        <source>Previous node</source>
        <translation>Previous node</translation>
    </message>
    <message>
        <source>Next node</source>
        <translation>Next node</translation>
    </message>
    <message>
        <source>Node list (%1)</source>
        <translation>Node list (%1)</translation>
    </message>
    <message>
        <source>Invalid regular expression</source>
        <translation>Invalid regular expression</translation>
    </message>
    <message>
        <source>Top of the list</source>
        <translation>Top of the list</translation>
    </message>
    <message>
        <source>Bottom of the list</source>
        <translation>Bottom of the list</translation>
    </message>
</context>
<context>
    <name>NodeMatchPanel</name>
    <message>
        <source>Match configuration file</source>
        <translation>Match configuration file</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Apply</translation>
    </message>
    <message>
        <source>Generate match configuration file</source>
        <translation>Generate match configuration file</translation>
    </message>
    <message>
        <source>Debug unmatched</source>
        <translation>Debug unmatched</translation>
    </message>
    <message>
        <source>Bench unmatched</source>
        <translation>Bench unmatched</translation>
    </message>
    <message>
        <source>Simultaneously operate descendant nodes</source>
        <translation>Simultaneously operate descendant nodes</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Match</translation>
    </message>
    <message>
        <source>Match nodes</source>
        <translation>Match nodes</translation>
    </message>
    <message>
        <source>Debug matched</source>
        <translation>Debug matched</translation>
    </message>
    <message>
        <source>Bench matched</source>
        <translation>Bench matched</translation>
    </message>
    <message>
        <source>Unmatch</source>
        <translation>Unmatch</translation>
    </message>
    <message>
        <source>Unmatch nodes</source>
        <translation>Unmatch nodes</translation>
    </message>
    <message>
        <source>total %1 / success %2 / failed %3</source>
        <translation>total %1 / success %2 / failed %3</translation>
    </message>
    <message>
        <source>Pick a debug node and a bench node to match.</source>
        <translation>Pick a debug node and a bench node to match.</translation>
    </message>
    <message>
        <source>Pick a matched debug node to unmatch.</source>
        <translation>Pick a matched debug node to unmatch.</translation>
    </message>
    <message>
        <source>No .vis.config file beside the database.</source>
        <translation>No .vis.config file beside the database.</translation>
    </message>
    <message>
        <source>Written %1</source>
        <translation>Written %1</translation>
    </message>
</context>
<context>
    <name>NodePickList</name>
    <message>
        <source>Search</source>
        <translation>Search</translation>
    </message>
</context>
<context>
    <name>PairDialog</name>
    <message>
        <source>Open problem/bench pair</source>
        <translation>Open problem/bench pair</translation>
    </message>
    <message>
        <source>&amp;Problem dump:</source>
        <translation>&amp;Problem dump:</translation>
    </message>
    <message>
        <source>Problem (debug) dump folder</source>
        <translation>Problem (debug) dump folder</translation>
    </message>
    <message>
        <source>&amp;Bench dump:</source>
        <translation>&amp;Bench dump:</translation>
    </message>
    <message>
        <source>Benchmark dump folder</source>
        <translation>Benchmark dump folder</translation>
    </message>
    <message>
        <source>&amp;Output folder:</source>
        <translation>&amp;Output folder:</translation>
    </message>
    <message>
        <source>Folder for the vis.db</source>
        <translation>Folder for the vis.db</translation>
    </message>
    <message>
        <source>a new folder in the cache</source>
        <translation>a new folder in the cache</translation>
    </message>
    <message>
        <source>&amp;Fuzzy match (-fm): ignore call counters inside matched modules</source>
        <translation>&amp;Fuzzy match (-fm): ignore call counters inside matched modules</translation>
    </message>
    <message>
        <source>O&amp;verflow check (-oc): grade NaN/Inf anomalies</source>
        <translation>O&amp;verflow check (-oc): grade NaN/Inf anomalies</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Browse…</translation>
    </message>
    <message>
        <source>&amp;Layer mapping:</source>
        <translation>&amp;Layer mapping:</translation>
    </message>
    <message>
        <source>Layer mapping YAML (-lm)</source>
        <translation>Layer mapping YAML (-lm)</translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml)</source>
        <translation>YAML files (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>optional: a YAML file mapping renamed layers (-lm)</source>
        <translation>optional: a YAML file mapping renamed layers (-lm)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>There is no comparison to export.</source>
        <translation>There is no comparison to export.</translation>
    </message>
    <message>
        <source>There is no comparison for step %1, rank %2 to export.</source>
        <translation>There is no comparison for step %1, rank %2 to export.</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 does not exist.</translation>
    </message>
    <message>
        <source>Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).</source>
        <translation>Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).</translation>
    </message>
</context>
<context>
    <name>RecentFiles</name>
    <message>
        <source> vs </source>
        <translation> vs </translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>Clear the list</translation>
    </message>
</context>
<context>
    <name>StudioSession</name>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 vs %2</translation>
    </message>
    <message>
        <source>No model graph for this dump: %1</source>
        <translation>No model graph for this dump: %1</translation>
    </message>
    <message>
        <source>Graph: %1</source>
        <translation>Graph: %1</translation>
    </message>
    <message>
        <source>Compare: %1</source>
        <translation>Compare: %1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Numerical-accuracy workstation for msprobe dumps.</source>
        <translation>Numerical-accuracy workstation for msprobe dumps.</translation>
    </message>
    <message>
        <source>A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH.</source>
        <translation>A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH.</translation>
    </message>
    <message>
        <source>Save a PNG of the window once loading is done, then quit (for docs and checks).</source>
        <translation>Save a PNG of the window once loading is done, then quit (for docs and checks).</translation>
    </message>
</context>
</TS>
