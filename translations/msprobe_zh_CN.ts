<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CompareTableView</name>
    <message>
        <location filename="../views/comparetableview.cpp" line="41"/>
        <source>Filter by NPU or bench name…</source>
        <translation>按 NPU 或标杆名称过滤…</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="43"/>
        <source>All results</source>
        <translation>全部结果</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="44"/>
        <source>Warning and error</source>
        <translation>告警和错误</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="45"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="46"/>
        <source>Warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="47"/>
        <source>Pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="186"/>
        <source>%1 of %2 rows</source>
        <translation>%1 / %2 行</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="23"/>
        <source>All steps and ranks</source>
        <translation>所有步骤和卡</translation>
    </message>
    <message>
        <location filename="../views/comparetableview.cpp" line="26"/>
        <source>Show the rows of every compared step and rank, with Step and Rank columns</source>
        <translation>显示所有已比对的步骤和卡的行，并带有 Step 和 Rank 列</translation>
    </message>
</context>
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
    <name>GraphDiffView</name>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="78"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="78"/>
        <source>Overflow</source>
        <translation>溢出</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="79"/>
        <source>Colour nodes by precision level or by overflow level (needs a db made with -oc)</source>
        <translation>按精度等级或溢出等级给节点着色（溢出需使用 -oc 生成的数据库）</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="80"/>
        <source>Sync expand</source>
        <translation>同步展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="82"/>
        <source>Expanding a node also expands its match on the other side</source>
        <translation>展开节点时同时展开另一侧的匹配节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="90"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="90"/>
        <source>Fit both graphs to the window</source>
        <translation>将两侧图适应窗口大小</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="91"/>
        <source>First divergence</source>
        <translation>首个分歧</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="91"/>
        <source>Go to the first error-level node in execution order</source>
        <translation>按执行顺序跳转到第一个错误级节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="92"/>
        <source>Click: select (the match is selected on the other side)
Double-click: expand / collapse
Drag empty space: pan; drag a node onto a node of the other side: match them
Ctrl+wheel, W / S: zoom
Wheel: scroll; A / D: left / right</source>
        <translation>单击：选中（另一侧同时选中匹配节点）
双击：展开 / 折叠
拖动空白处：平移；将节点拖到另一侧的节点上：匹配二者
Ctrl+滚轮、W / S：缩放
滚轮：滚动；A / D：左移 / 右移</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="113"/>
        <location filename="../views/graph/graphdiffview.cpp" line="384"/>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="114"/>
        <location filename="../views/graph/graphdiffview.cpp" line="386"/>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="159"/>
        <location filename="../views/graph/graphdiffview.cpp" line="251"/>
        <location filename="../views/graph/graphdiffview.cpp" line="270"/>
        <source>Laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="311"/>
        <source>Locate matched node</source>
        <translation>定位匹配节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="313"/>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="313"/>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="314"/>
        <source>Show details</source>
        <translation>显示详情</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="319"/>
        <source>Unmatch</source>
        <translation>取消匹配</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="322"/>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="394"/>
        <source>Nothing to export yet: the graph is not laid out</source>
        <translation>暂无可导出内容：图尚未完成布局</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="413"/>
        <source>msprobe graph diff</source>
        <translation>msprobe 图差异</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="416"/>
        <location filename="../views/graph/graphdiffview.cpp" line="422"/>
        <location filename="../views/graph/graphdiffview.cpp" line="440"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="431"/>
        <source>The picture is too large to render (%1 x %2)</source>
        <translation>图片过大，无法渲染（%1 x %2）</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="342"/>
        <source>Data send</source>
        <translation>数据发送</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="342"/>
        <source>Data receive</source>
        <translation>数据接收</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="342"/>
        <source>Data send-receive</source>
        <translation>数据发送-接收</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="84"/>
        <source>Debug mini-map</source>
        <translation>调试侧缩略图</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="86"/>
        <source>Bench mini-map</source>
        <translation>标杆侧缩略图</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="22"/>
        <source>Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: API list (standalone APIs between modules). Dotted box: multi collection (fused operators). A badge on a collapsed module counts the warnings and errors inside it, in the worst colour.</source>
        <translation>圆角框：模块（双击展开）。椭圆：无子节点的节点。虚线框：API 列表（模块之间的独立 API）。点线框：融合算子集合。折叠模块上的角标统计其内部的告警和错误数，颜色取最严重者。</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="42"/>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="43"/>
        <source>Leaf</source>
        <translation>叶子节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="44"/>
        <source>API list</source>
        <translation>API 列表</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="45"/>
        <source>Multi collection</source>
        <translation>融合算子集合</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="47"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="48"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="49"/>
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="53"/>
        <source>Pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="54"/>
        <source>Warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="55"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="56"/>
        <source>No grade</source>
        <translation>无等级</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="58"/>
        <source>Unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="42"/>
        <source>A module or operator; double-click a module to expand it</source>
        <translation>模块或算子；双击模块可展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="43"/>
        <source>An unexpanded node: it has no children, so it cannot be expanded</source>
        <translation>未展开节点：没有子节点，因此无法展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="44"/>
        <source>A collection of standalone APIs between modules</source>
        <translation>模块之间独立 API 的集合</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="45"/>
        <source>A collection of fused operators</source>
        <translation>融合算子的集合</translation>
    </message>
</context>
<context>
    <name>GraphMinimap</name>
    <message>
        <location filename="../views/graph/graphminimap.cpp" line="24"/>
        <source>Overview: click or drag to move the view</source>
        <translation>全局视图：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>GraphSwitcher</name>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="34"/>
        <source>Training step (Alt+Left / Alt+Right)</source>
        <translation>训练 step（Alt+Left / Alt+Right）</translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="35"/>
        <source>Rank (Ctrl+PgUp / Ctrl+PgDown)</source>
        <translation>Rank（Ctrl+PgUp / Ctrl+PgDown）</translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="36"/>
        <source>Micro step: only the nodes of one micro batch</source>
        <translation>Micro step：只显示一个 micro batch 的节点</translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="39"/>
        <source> Step </source>
        <translation> 训练步 </translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="41"/>
        <source> Rank </source>
        <translation> 卡 (Rank) </translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="43"/>
        <source> Micro step </source>
        <translation> 微步 </translation>
    </message>
    <message>
        <location filename="../app/studio/graphswitcher.cpp" line="60"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="61"/>
        <source>msprobe studio</source>
        <translation>msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="202"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="220"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="72"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="404"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="438"/>
        <source>Loading cancelled.</source>
        <translation>加载已取消。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="431"/>
        <source>%1 — msprobe studio</source>
        <translation>%1 — msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="440"/>
        <location filename="../app/studio/mainwindow.cpp" line="441"/>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="470"/>
        <source>Open dump folder</source>
        <translation>打开 dump 目录</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="73"/>
        <source>Stop loading (Esc)</source>
        <translation>停止加载（Esc）</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="79"/>
        <source>Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here).</source>
        <translation>打开 dump 目录、问题/标杆对、vis.db 或比对 CSV（文件菜单，或拖放到此处）。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="137"/>
        <location filename="../app/studio/mainwindow.cpp" line="140"/>
        <source>Search and filter</source>
        <translation>搜索与过滤</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="139"/>
        <source>Graph diff view: not part of this build.</source>
        <translation>图差异视图：本构建未包含。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="140"/>
        <source>Node search and filters: not part of this build.</source>
        <translation>节点搜索与过滤：本构建未包含。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="148"/>
        <location filename="../app/studio/mainwindow.cpp" line="150"/>
        <source>Node matching</source>
        <translation>节点匹配</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="150"/>
        <source>Node matching: not part of this build.</source>
        <translation>节点匹配：本构建未包含。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="160"/>
        <source>Dump summary</source>
        <translation>Dump 概要</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="166"/>
        <source>Compare table</source>
        <translation>比对表</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="170"/>
        <location filename="../app/studio/mainwindow.cpp" line="172"/>
        <source>Node details</source>
        <translation>节点详情</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="172"/>
        <source>Node details: not part of this build.</source>
        <translation>节点详情：本构建未包含。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="181"/>
        <source>Matching failed</source>
        <translation>匹配失败</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="203"/>
        <source>Open &amp;dump folder…</source>
        <translation>打开 &amp;dump 目录…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="204"/>
        <source>Open problem/bench &amp;pair…</source>
        <translation>打开问题/标杆&amp;对…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="204"/>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="205"/>
        <source>Open &amp;vis.db…</source>
        <translation>打开 &amp;vis.db…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="205"/>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="206"/>
        <location filename="../app/studio/mainwindow.cpp" line="245"/>
        <source>Open vis.db</source>
        <translation>打开 vis.db</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="206"/>
        <source>Graph databases (*.vis.db *.db);;All files (*)</source>
        <translation>图数据库 (*.vis.db *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="207"/>
        <source>Open compare &amp;CSV…</source>
        <translation>打开比对 &amp;CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="207"/>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="208"/>
        <source>Open compare result</source>
        <translation>打开比对结果</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="208"/>
        <source>Compare results (*.csv);;All files (*)</source>
        <translation>比对结果 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="209"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="212"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="213"/>
        <source>Comparison as &amp;CSV…</source>
        <translation>比对结果导出为 &amp;CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="213"/>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="215"/>
        <source>Comparison as &amp;XLSX…</source>
        <translation>比对结果导出为 &amp;XLSX…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="216"/>
        <source>&amp;HTML report…</source>
        <translation>&amp;HTML 报告…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="218"/>
        <source>Graph as &amp;PNG or SVG…</source>
        <translation>图导出为 &amp;PNG 或 SVG…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="218"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="222"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="224"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="226"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="232"/>
        <source>&amp;Filter the compare table</source>
        <translation>过滤比对表(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="239"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="243"/>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="244"/>
        <source>Open pair</source>
        <translation>打开对比</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="246"/>
        <source>Open CSV</source>
        <translation>打开 CSV</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="254"/>
        <source>&amp;Navigate</source>
        <translation>导航(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="255"/>
        <source>&amp;Next rank</source>
        <translation>下一个 rank(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="255"/>
        <source>Ctrl+PgDown</source>
        <translation>Ctrl+PgDown</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="256"/>
        <source>&amp;Previous rank</source>
        <translation>上一个 rank(&amp;P)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="256"/>
        <source>Ctrl+PgUp</source>
        <translation>Ctrl+PgUp</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="257"/>
        <source>Next &amp;step</source>
        <translation>下一个 &amp;step</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="257"/>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="258"/>
        <source>P&amp;revious step</source>
        <translation>上一个 step(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="258"/>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="261"/>
        <source>Go to first &amp;divergence</source>
        <translation>跳转到首个差异(&amp;D)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="261"/>
        <source>F3</source>
        <translation>F3</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="580"/>
        <source>First divergence: %1 — %2</source>
        <translation>首个分歧：%1 — %2</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="584"/>
        <source>No divergence: every entry stays within tolerance.</source>
        <translation>无分歧：所有条目都在容差之内。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="588"/>
        <source>No compare table here: showing the graph&apos;s first error-level node.</source>
        <translation>此处没有比对表：显示图中第一个错误级节点。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="590"/>
        <source>No error-level node in this graph.</source>
        <translation>此图中没有错误级节点。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="263"/>
        <source>First divergence</source>
        <translation>首个分歧</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="268"/>
        <source>Cancel loading</source>
        <translation>取消加载</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="273"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="278"/>
        <source>&amp;Dark theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="281"/>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="283"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="286"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="294"/>
        <source>The language changes the next time msprobe studio starts.</source>
        <translation>语言将在下次启动 msprobe studio 时生效。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="298"/>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="300"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="301"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="302"/>
        <source>&amp;About msprobe studio</source>
        <translation>关于 msprobe studio(&amp;A)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="303"/>
        <source>About msprobe studio</source>
        <translation>关于 msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="304"/>
        <source>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, node matching and reports.</source>
        <translation>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;msprobe dump 数值精度调试工作台：图差异、比对表、节点匹配与报告。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="388"/>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="418"/>
        <source>%p% — about %1 s left</source>
        <translation>%p% — 约剩 %1 秒</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="421"/>
        <source>Loading: %1</source>
        <translation>正在加载：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="428"/>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="432"/>
        <source>Opened %1 in %2 s.</source>
        <translation>已打开 %1，用时 %2 秒。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="500"/>
        <source>The graph view is not part of this build.</source>
        <translation>本构建未包含图视图。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="506"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="507"/>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="508"/>
        <source>HTML report (*.html)</source>
        <translation>HTML 报告 (*.html)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="512"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="519"/>
        <location filename="../app/studio/mainwindow.cpp" line="532"/>
        <source>Written %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="521"/>
        <location filename="../app/studio/mainwindow.cpp" line="534"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="526"/>
        <source>Export graph</source>
        <translation>导出图</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="527"/>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图片 (*.png);;SVG 图形 (*.svg)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="546"/>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>MatchController</name>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="104"/>
        <source>Match %1 with %2</source>
        <translation>匹配 %1 与 %2</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="116"/>
        <source>Unmatch %1</source>
        <translation>取消匹配 %1</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="128"/>
        <source>Apply %1</source>
        <translation>应用 %1</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="148"/>
        <source>No compare graph is open for matching.</source>
        <translation>没有打开可用于匹配的比对图。</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="152"/>
        <source>A match is still being computed; try again when it is done.</source>
        <translation>仍在计算匹配，请完成后重试。</translation>
    </message>
</context>
<context>
    <name>NodeDetailsModel</name>
    <message>
        <location filename="../views/details/nodedetailsmodel.cpp" line="81"/>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailsmodel.cpp" line="81"/>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
</context>
<context>
    <name>NodeDetailsPanel</name>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="36"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="64"/>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="65"/>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="66"/>
        <source>&lt;span style=&quot;color:#808080&quot;&gt;grey&lt;/span&gt;: no item at the same position on the other side</source>
        <translation>&lt;span style=&quot;color:#808080&quot;&gt;灰色&lt;/span&gt;：另一侧相同位置没有对应项</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="78"/>
        <location filename="../views/details/nodedetailspanel.cpp" line="107"/>
        <source>Comparison details</source>
        <translation>比对详情</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="82"/>
        <source>Debug stack</source>
        <translation>调试侧堆栈</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="83"/>
        <source>Bench stack</source>
        <translation>标杆侧堆栈</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="85"/>
        <source>Parallel merged info</source>
        <translation>并行合并信息</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="86"/>
        <source>Communication peers (double-click to go)</source>
        <translation>通信对端（双击跳转）</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="89"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="89"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="89"/>
        <source>Peer index</source>
        <translation>对端序号</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="94"/>
        <source>Node information</source>
        <translation>节点信息</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="107"/>
        <source>Input/Output details</source>
        <translation>输入/输出详情</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="187"/>
        <source>Debug node: %1    Bench node: %2</source>
        <translation>调试侧节点：%1    标杆侧节点：%2</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailspanel.cpp" line="188"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>NodeListPanel</name>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="47"/>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="47"/>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="51"/>
        <source>Search node names</source>
        <translation>搜索节点名称</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="53"/>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="60"/>
        <source>Precision (leaf debug nodes)</source>
        <translation>精度（调试侧叶子节点）</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="62"/>
        <source>Pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="63"/>
        <source>Warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="64"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="65"/>
        <source>Unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="66"/>
        <source>Overflow</source>
        <translation>溢出</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="69"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="70"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="71"/>
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="81"/>
        <source>Previous node</source>
        <translation>上一个节点</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="85"/>
        <source>Next node</source>
        <translation>下一个节点</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="182"/>
        <source>Node list (%1)</source>
        <translation>节点列表（%1）</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="183"/>
        <source>Invalid regular expression</source>
        <translation>无效的正则表达式</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="210"/>
        <source>Top of the list</source>
        <translation>已到列表顶部</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="214"/>
        <source>Bottom of the list</source>
        <translation>已到列表底部</translation>
    </message>
</context>
<context>
    <name>NodeMatchPanel</name>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="42"/>
        <source>Match configuration file</source>
        <translation>匹配配置文件</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="45"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="46"/>
        <source>Generate match configuration file</source>
        <translation>生成匹配配置文件</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="57"/>
        <source>Debug unmatched</source>
        <translation>调试侧未匹配</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="58"/>
        <source>Bench unmatched</source>
        <translation>标杆侧未匹配</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="59"/>
        <location filename="../views/match/nodematchpanel.cpp" line="65"/>
        <source>Simultaneously operate descendant nodes</source>
        <translation>同时操作子孙节点</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="60"/>
        <source>Match</source>
        <translation>匹配</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="61"/>
        <source>Match nodes</source>
        <translation>匹配节点</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="63"/>
        <source>Debug matched</source>
        <translation>调试侧已匹配</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="64"/>
        <source>Bench matched</source>
        <translation>标杆侧已匹配</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="66"/>
        <source>Unmatch</source>
        <translation>取消匹配</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="67"/>
        <source>Unmatch nodes</source>
        <translation>取消节点匹配</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="88"/>
        <source>total %1 / success %2 / failed %3</source>
        <translation>总数 %1 / 成功 %2 / 失败 %3</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="156"/>
        <source>Pick a debug node and a bench node to match.</source>
        <translation>请选择一个调试侧节点和一个标杆侧节点进行匹配。</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="166"/>
        <source>Pick a matched debug node to unmatch.</source>
        <translation>请选择一个已匹配的调试侧节点以取消匹配。</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="176"/>
        <source>No .vis.config file beside the database.</source>
        <translation>数据库旁没有 .vis.config 文件。</translation>
    </message>
    <message>
        <location filename="../views/match/nodematchpanel.cpp" line="185"/>
        <source>Written %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>NodePickList</name>
    <message>
        <location filename="../views/match/nodepicklist.cpp" line="25"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
</context>
<context>
    <name>PairDialog</name>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="18"/>
        <source>Open problem/bench pair</source>
        <translation>打开问题/标杆对</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="20"/>
        <source>&amp;Problem dump:</source>
        <translation>问题侧 dump(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="20"/>
        <source>Problem (debug) dump folder</source>
        <translation>问题（调试）侧 dump 目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="21"/>
        <source>&amp;Bench dump:</source>
        <translation>标杆侧 dump(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="21"/>
        <source>Benchmark dump folder</source>
        <translation>标杆侧 dump 目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="22"/>
        <source>&amp;Output folder:</source>
        <translation>输出目录(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="22"/>
        <source>Folder for the vis.db</source>
        <translation>vis.db 的存放目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="23"/>
        <source>a new folder in the cache</source>
        <translation>缓存中的新目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="26"/>
        <source>&amp;Fuzzy match (-fm): ignore call counters inside matched modules</source>
        <translation>模糊匹配 (-fm)(&amp;F)：在已匹配模块内忽略调用计数</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="27"/>
        <source>O&amp;verflow check (-oc): grade NaN/Inf anomalies</source>
        <translation>溢出检测 (-oc)(&amp;V)：对 NaN/Inf 异常分级</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="50"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="73"/>
        <source>Choose the %1 folder.</source>
        <translation>请选择%1文件夹。</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="76"/>
        <source>The %1 folder does not exist: %2</source>
        <translation>%1文件夹不存在：%2</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="78"/>
        <source>The %1 path is not a folder: %2</source>
        <translation>%1路径不是文件夹：%2</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="81"/>
        <source>problem dump</source>
        <translation>问题 dump</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="83"/>
        <source>bench dump</source>
        <translation>标杆 dump</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="87"/>
        <source>The layer mapping is not a file: %1</source>
        <translation>层映射不是文件：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="24"/>
        <source>&amp;Layer mapping:</source>
        <translation>层映射(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="24"/>
        <source>Layer mapping YAML (-lm)</source>
        <translation>层映射 YAML（-lm）</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="24"/>
        <source>YAML files (*.yaml *.yml)</source>
        <translation>YAML 文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="25"/>
        <source>optional: a YAML file mapping renamed layers (-lm)</source>
        <translation>可选：映射重命名层的 YAML 文件（-lm）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/studio/reportexport.cpp" line="57"/>
        <source>There is no comparison to export.</source>
        <translation>没有可导出的比对结果。</translation>
    </message>
    <message>
        <location filename="../app/studio/reportexport.cpp" line="64"/>
        <source>There is no comparison for step %1, rank %2 to export.</source>
        <translation>step %1、rank %2 没有可导出的比对结果。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="36"/>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="49"/>
        <source>Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).</source>
        <translation>请打开一个路径（dump 目录、.vis.db 或比对 CSV）或两个 dump 目录（问题侧、标杆侧）。</translation>
    </message>
</context>
<context>
    <name>RecentFiles</name>
    <message>
        <location filename="../app/studio/recentfiles.cpp" line="49"/>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
    <message>
        <location filename="../app/studio/recentfiles.cpp" line="54"/>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
</context>
<context>
    <name>StudioSession</name>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="95"/>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="183"/>
        <source>No model graph for this dump: %1</source>
        <translation>此 dump 无法生成模型图：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="196"/>
        <source>Graph: %1</source>
        <translation>图：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="209"/>
        <source>Compare: %1</source>
        <translation>比对：%1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/studio/main.cpp" line="50"/>
        <source>Numerical-accuracy workstation for msprobe dumps.</source>
        <translation>msprobe dump 数值精度分析工作站。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="54"/>
        <source>A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH.</source>
        <translation>一个 dump 目录、dump.json、.vis.db 或比对 CSV；或两个 dump 目录：问题侧 标杆侧。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="57"/>
        <source>Save a PNG of the window once loading is done, then quit (for docs and checks).</source>
        <translation>加载完成后保存窗口的 PNG 截图并退出（用于文档和检查）。</translation>
    </message>
</context>
</TS>
