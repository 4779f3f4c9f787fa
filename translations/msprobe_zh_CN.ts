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
        <location filename="../views/comparetableview.cpp" line="211"/>
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
        <location filename="../views/graph/graphdiffview.cpp" line="84"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="84"/>
        <source>Overflow</source>
        <translation>溢出</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="87"/>
        <source>Sync expand</source>
        <translation>同步展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="89"/>
        <source>Expanding a node also expands its match on the other side</source>
        <translation>展开节点时同时展开另一侧的匹配节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="101"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="101"/>
        <source>Fit both graphs to the window</source>
        <translation>将两侧图适应窗口大小</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="102"/>
        <source>Levels</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="102"/>
        <source>Collapse all modules, or open them down to a depth</source>
        <translation>折叠所有模块，或展开到指定深度</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="106"/>
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="108"/>
        <source>Expand to depth %1</source>
        <translation>展开到第 %1 层</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="110"/>
        <source>First divergence</source>
        <translation>首个分歧</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="110"/>
        <source>Go to the first error-level node in execution order</source>
        <translation>按执行顺序跳转到第一个错误级节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="111"/>
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
        <location filename="../views/graph/graphdiffview.cpp" line="136"/>
        <location filename="../views/graph/graphdiffview.cpp" line="468"/>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="137"/>
        <location filename="../views/graph/graphdiffview.cpp" line="470"/>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="194"/>
        <location filename="../views/graph/graphdiffview.cpp" line="256"/>
        <location filename="../views/graph/graphdiffview.cpp" line="314"/>
        <location filename="../views/graph/graphdiffview.cpp" line="333"/>
        <source>Laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="374"/>
        <source>Locate matched node</source>
        <translation>定位匹配节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="376"/>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="376"/>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="377"/>
        <source>Show details</source>
        <translation>显示详情</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="382"/>
        <source>Unmatch</source>
        <translation>取消匹配</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="385"/>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="477"/>
        <source>Nothing to export yet: the graph is not laid out</source>
        <translation>暂无可导出内容：图尚未完成布局</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="490"/>
        <source>msprobe graph diff — step %1, rank %2</source>
        <translation>msprobe 图差异 — step %1，rank %2</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="490"/>
        <source>msprobe graph — step %1, rank %2</source>
        <translation>msprobe 图 — step %1，rank %2</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="520"/>
        <source>msprobe graph diff</source>
        <translation>msprobe 图差异</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="523"/>
        <location filename="../views/graph/graphdiffview.cpp" line="529"/>
        <location filename="../views/graph/graphdiffview.cpp" line="547"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="538"/>
        <source>The picture is too large to render (%1 x %2)</source>
        <translation>图片过大，无法渲染（%1 x %2）</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="405"/>
        <source>Data send</source>
        <translation>数据发送</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="84"/>
        <source>Error magnitude</source>
        <translation>误差幅度</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="85"/>
        <source>Colour nodes by precision level, by overflow level (needs a db made with -oc) or by error magnitude (the worst output relative error, or 1 - cosine, on a five-step scale)</source>
        <translation>按精度等级、溢出等级（需使用 -oc 生成的数据库）或误差幅度（输出的最大相对误差，或 1 - 余弦相似度，分五档）给节点着色</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="405"/>
        <source>Data receive</source>
        <translation>数据接收</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="405"/>
        <source>Data send-receive</source>
        <translation>数据发送-接收</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="95"/>
        <source>Debug mini-map</source>
        <translation>调试侧缩略图</translation>
    </message>
    <message>
        <location filename="../views/graph/graphdiffview.cpp" line="97"/>
        <source>Bench mini-map</source>
        <translation>标杆侧缩略图</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="24"/>
        <source>Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: API list (standalone APIs between modules). Dotted box: multi collection (fused operators). A badge on a collapsed module counts the warnings and errors inside it, in the worst colour.</source>
        <translation>圆角框：模块（双击展开）。椭圆：无子节点的节点。虚线框：API 列表（模块之间的独立 API）。点线框：融合算子集合。折叠模块上的角标统计其内部的告警和错误数，颜色取最严重者。</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="44"/>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="45"/>
        <source>Leaf</source>
        <translation>叶子节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="46"/>
        <source>API list</source>
        <translation>API 列表</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="47"/>
        <source>Multi collection</source>
        <translation>融合算子集合</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="49"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="50"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="51"/>
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="54"/>
        <source>A matched node without a compared output (no grade); a matched bench node takes its debug partner&apos;s colour</source>
        <translation>已匹配但没有可比较输出的节点（无等级）；已匹配的标杆节点使用其调试侧匹配节点的颜色</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="56"/>
        <source>No node on the other side</source>
        <translation>另一侧没有对应节点</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="58"/>
        <source>The node&apos;s worst output relative error (Max, Min, Mean, Norm; tensor mode: 1 - cosine or MaxRelativeErr; md5: a differing checksum is 100%), capped at 100%</source>
        <translation>节点输出的最大相对误差（Max、Min、Mean、Norm；真实数据模式：1 - 余弦相似度或 MaxRelativeErr；md5：校验和不同即 100%），上限 100%</translation>
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
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="73"/>
        <source>Warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="74"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="67"/>
        <location filename="../views/graph/graphlegend.cpp" line="75"/>
        <source>No grade</source>
        <translation>无等级</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="68"/>
        <location filename="../views/graph/graphlegend.cpp" line="76"/>
        <source>Unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="78"/>
        <source>Node (one dump: not compared)</source>
        <translation>节点（单个 dump：未比对）</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="44"/>
        <source>A module or operator; double-click a module to expand it</source>
        <translation>模块或算子；双击模块可展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="45"/>
        <source>An unexpanded node: it has no children, so it cannot be expanded</source>
        <translation>未展开节点：没有子节点，因此无法展开</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="46"/>
        <source>A collection of standalone APIs between modules</source>
        <translation>模块之间独立 API 的集合</translation>
    </message>
    <message>
        <location filename="../views/graph/graphlegend.cpp" line="47"/>
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
    <name>GraphViewSync</name>
    <message>
        <location filename="../views/graph/graphviewsync.cpp" line="16"/>
        <source>Sync pan and zoom</source>
        <translation>同步平移和缩放</translation>
    </message>
    <message>
        <location filename="../views/graph/graphviewsync.cpp" line="21"/>
        <source>Scrolling or zooming one graph moves the other to the matching place</source>
        <translation>滚动或缩放一侧图时，另一侧图移动到匹配的位置</translation>
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
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="59"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="58"/>
        <location filename="../app/studio/mainwindow_memory.cpp" line="76"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="274"/>
        <source>Step %1, rank %2: %3 rows: %4 pass, %5 warning, %6 error</source>
        <translation>step %1，rank %2：共 %3 行：%4 通过，%5 告警，%6 错误</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="289"/>
        <location filename="../app/studio/mainwindow.cpp" line="304"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="302"/>
        <source>A compare CSV has no graph. Open the dump folders (a problem/bench pair) to see the graphs and the verdict.</source>
        <translation>比对 CSV 不含图。请打开 dump 目录（问题/标杆对）以查看图和结论。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="306"/>
        <source>No graph for step %1, rank %2.</source>
        <translation>step %1、rank %2 没有图。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="308"/>
        <source>No graph for what is open.</source>
        <translation>当前打开的内容没有图。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="334"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="372"/>
        <source>Loading cancelled.</source>
        <translation>加载已取消。</translation>
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
        <translation>没有图：模型图需要 L0 或 mix 级别的 dump（其 construct.json 记录模块结构）；L1 dump 只有比对表和结论。

%1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="374"/>
        <location filename="../app/studio/mainwindow.cpp" line="375"/>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="148"/>
        <source>Open dump folder</source>
        <translation>打开 dump 目录</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="59"/>
        <source>Stop loading (Esc)</source>
        <translation>停止加载（Esc）</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="65"/>
        <source>Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here).</source>
        <translation>打开 dump 目录、问题/标杆对、vis.db 或比对 CSV（文件菜单，或拖放到此处）。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="156"/>
        <source>Search and filter</source>
        <translation>搜索与过滤</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="161"/>
        <source>Node matching</source>
        <translation>节点匹配</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="169"/>
        <source>Dump summary</source>
        <translation>Dump 概要</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="175"/>
        <source>Compare table</source>
        <translation>比对表</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="178"/>
        <source>Node details</source>
        <translation>节点详情</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="189"/>
        <source>Matching failed</source>
        <translation>匹配失败</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="37"/>
        <source>Open &amp;dump folder…</source>
        <translation>打开 &amp;dump 目录…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="38"/>
        <source>Open problem/bench &amp;pair…</source>
        <translation>打开问题/标杆&amp;对…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="38"/>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="39"/>
        <source>Open &amp;vis.db…</source>
        <translation>打开 &amp;vis.db…</translation>
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
        <translation>打开 vis.db</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="40"/>
        <source>Graph databases (*.vis.db *.db);;All files (*)</source>
        <translation>图数据库 (*.vis.db *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="41"/>
        <source>Open compare &amp;CSV…</source>
        <translation>打开比对 &amp;CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="41"/>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="42"/>
        <source>Open compare result</source>
        <translation>打开比对结果</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="42"/>
        <source>Compare results (*.csv);;All files (*)</source>
        <translation>比对结果 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="43"/>
        <source>Open &amp;memory dump…</source>
        <translation>打开内存转储(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="43"/>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="44"/>
        <source>Compare with memory dump…</source>
        <translation>与内存转储比较…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="45"/>
        <source>Export memory panel as CSV…</source>
        <translation>将内存面板导出为 CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="46"/>
        <source>Open &amp;trend database…</source>
        <translation>打开趋势数据库(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="46"/>
        <source>Ctrl+Alt+T</source>
        <translation>Ctrl+Alt+T</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="47"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="50"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="51"/>
        <source>Comparison as &amp;CSV…</source>
        <translation>比对结果导出为 &amp;CSV…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="51"/>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="53"/>
        <source>Comparison as &amp;XLSX…</source>
        <translation>比对结果导出为 &amp;XLSX…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="54"/>
        <source>&amp;HTML report…</source>
        <translation>&amp;HTML 报告…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="56"/>
        <source>Graph as &amp;PNG or SVG…</source>
        <translation>图导出为 &amp;PNG 或 SVG…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="56"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="57"/>
        <source>&amp;Trend panel as PNG, SVG or CSV…</source>
        <translation>趋势面板导出为 PNG、SVG 或 CSV(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="61"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="62"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="64"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="69"/>
        <source>&amp;Filter the compare table</source>
        <translation>过滤比对表(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="76"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="80"/>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="81"/>
        <source>Open pair</source>
        <translation>打开对比</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="83"/>
        <source>Open CSV</source>
        <translation>打开 CSV</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="91"/>
        <source>&amp;Navigate</source>
        <translation>导航(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="92"/>
        <source>&amp;Next rank</source>
        <translation>下一个 rank(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="92"/>
        <source>Ctrl+PgDown</source>
        <translation>Ctrl+PgDown</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="93"/>
        <source>&amp;Previous rank</source>
        <translation>上一个 rank(&amp;P)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="93"/>
        <source>Ctrl+PgUp</source>
        <translation>Ctrl+PgUp</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="94"/>
        <source>Next &amp;step</source>
        <translation>下一个 &amp;step</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="94"/>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="95"/>
        <source>P&amp;revious step</source>
        <translation>上一个 step(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="95"/>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="97"/>
        <source>Go to first &amp;divergence</source>
        <translation>跳转到首个差异(&amp;D)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="97"/>
        <source>F3</source>
        <translation>F3</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="268"/>
        <source>First divergence: %1 — %2</source>
        <translation>首个分歧：%1 — %2</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="272"/>
        <source>No divergence: every entry stays within tolerance.</source>
        <translation>无分歧：所有条目都在容差之内。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="276"/>
        <source>No compare table here: showing the graph&apos;s first error-level node.</source>
        <translation>此处没有比对表：显示图中第一个错误级节点。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="278"/>
        <source>No error-level node in this graph.</source>
        <translation>此图中没有错误级节点。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="99"/>
        <source>First divergence</source>
        <translation>首个分歧</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="103"/>
        <source>Cancel loading</source>
        <translation>取消加载</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="108"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="114"/>
        <source>&amp;Dark theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="117"/>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="119"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="122"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="130"/>
        <source>The language changes the next time msprobe studio starts.</source>
        <translation>语言将在下次启动 msprobe studio 时生效。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="134"/>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="136"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="137"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="138"/>
        <source>&amp;About msprobe studio</source>
        <translation>关于 msprobe studio(&amp;A)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="139"/>
        <source>About msprobe studio</source>
        <translation>关于 msprobe studio</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="140"/>
        <source>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, node matching and reports.</source>
        <translation>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;msprobe dump 数值精度调试工作台：图差异、比对表、节点匹配与报告。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="318"/>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="349"/>
        <source>%p% — about %1 s left</source>
        <translation>%p% — 约剩 %1 秒</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="352"/>
        <source>Loading: %1</source>
        <translation>正在加载：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="359"/>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow.cpp" line="366"/>
        <source>Opened %1 in %2 s.</source>
        <translation>已打开 %1，用时 %2 秒。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="179"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="180"/>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="181"/>
        <source>HTML report (*.html)</source>
        <translation>HTML 报告 (*.html)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="185"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="192"/>
        <location filename="../app/studio/mainwindow_actions.cpp" line="204"/>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="51"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="131"/>
        <source>Written %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="194"/>
        <location filename="../app/studio/mainwindow_actions.cpp" line="206"/>
        <location filename="../app/studio/mainwindow_memory.cpp" line="184"/>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="53"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="122"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="133"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="199"/>
        <source>Export graph</source>
        <translation>导出图</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="199"/>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="46"/>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图片 (*.png);;SVG 图形 (*.svg)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_actions.cpp" line="218"/>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="19"/>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_parallel.cpp" line="46"/>
        <source>Export parallelism</source>
        <translation>导出并行布局</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="31"/>
        <source>Open memory dump</source>
        <translation>打开内存转储</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="32"/>
        <location filename="../app/studio/mainwindow_memory.cpp" line="40"/>
        <source>Memory traces: msMemScope dumps, PyTorch snapshots (*.csv *.db *.pickle *.pkl);;All files (*)</source>
        <translation>内存轨迹：msMemScope 转储、PyTorch 快照 (*.csv *.db *.pickle *.pkl);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="39"/>
        <source>Compare with memory dump</source>
        <translation>与内存转储比较</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="53"/>
        <source>Memory timeline</source>
        <translation>内存时间线</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="76"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="103"/>
        <source>Cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/studio/mainwindow_memory.cpp" line="122"/>
        <source>%n operator(s) in the selected range</source>
        <translation>
            <numerusform>所选时间范围内有 %n 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/studio/mainwindow_memory.cpp" line="130"/>
        <source>%n operator(s) in the selected range; %1 graph node(s) call them</source>
        <translation>
            <numerusform>所选时间范围内有 %n 个算子；图中有 %1 个节点调用它们</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="168"/>
        <source>No memory dump is open</source>
        <translation>未打开内存转储</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="171"/>
        <source>The memory panel has nothing to export</source>
        <translation>内存面板没有可导出的内容</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="174"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="180"/>
        <source>Export memory panel as CSV</source>
        <translation>将内存面板导出为 CSV</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_memory.cpp" line="180"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="29"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="103"/>
        <source>Trend</source>
        <translation>趋势</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="36"/>
        <source>Opening trend data %1…</source>
        <translation>正在打开趋势数据 %1…</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="44"/>
        <source>Trend data: %1</source>
        <translation>趋势数据：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="52"/>
        <source>Trend: %1 vs %2</source>
        <translation>趋势：%1 对比 %2</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="52"/>
        <source>Trend: %1</source>
        <translation>趋势：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="62"/>
        <source>Opening trend data cancelled.</source>
        <translation>已取消打开趋势数据。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="64"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="65"/>
        <source>Could not open the trend data</source>
        <translation>无法打开趋势数据</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="79"/>
        <source>Open trend database</source>
        <translation>打开趋势数据库</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="80"/>
        <source>Trend databases (*.trend.db);;All files (*)</source>
        <translation>趋势数据库 (*.trend.db);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="89"/>
        <source>%1: no trend database is open</source>
        <translation>%1：没有打开的趋势数据库</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="106"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="109"/>
        <location filename="../app/studio/mainwindow_trend.cpp" line="112"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="116"/>
        <source>%1: the file name must end in .png, .svg or .csv</source>
        <translation>%1：文件名须以 .png、.svg 或 .csv 结尾</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="122"/>
        <source>No trend database is open.</source>
        <translation>没有打开的趋势数据库。</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="125"/>
        <source>Export trend panel</source>
        <translation>导出趋势面板</translation>
    </message>
    <message>
        <location filename="../app/studio/mainwindow_trend.cpp" line="126"/>
        <source>PNG image (*.png);;SVG drawing (*.svg);;CSV of the heat-map cells (*.csv)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;热力图单元格 CSV (*.csv)</translation>
    </message>
</context>
<context>
    <name>MatchController</name>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="100"/>
        <source>Match %1 with %2</source>
        <translation>匹配 %1 与 %2</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="112"/>
        <source>Unmatch %1</source>
        <translation>取消匹配 %1</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="124"/>
        <source>Apply %1</source>
        <translation>应用 %1</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="144"/>
        <source>No compare graph is open for matching.</source>
        <translation>没有打开可用于匹配的比对图。</translation>
    </message>
    <message>
        <location filename="../views/match/matchcontroller.cpp" line="148"/>
        <source>A match is still being computed; try again when it is done.</source>
        <translation>仍在计算匹配，请完成后重试。</translation>
    </message>
</context>
<context>
    <name>MemoryComparePanel</name>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Only in</source>
        <translation>仅存在于</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Allocated</source>
        <translation>分配时间</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="36"/>
        <source>Why highlighted</source>
        <translation>高亮原因</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="40"/>
        <source>Run A:</source>
        <translation>运行 A：</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="42"/>
        <source>Run B:</source>
        <translation>运行 B：</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="68"/>
        <source>%1 — whole capture</source>
        <translation>%1 — 整个采集</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="71"/>
        <source>%1 — step %2</source>
        <translation>%1 — step %2</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="103"/>
        <source>Open a memory dump, then compare two of its steps or a second dump (File → Compare with memory dump…).</source>
        <translation>请先打开一个内存转储，然后比较它的两个 step，或与第二个转储比较（文件 → 与内存转储比较…）。</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="120"/>
        <source>Peak A %1 at %2, peak B %3 at %4: B − A = %5. Live only at B&apos;s peak: %6 in %7 blocks; only at A&apos;s: %8 in %9 blocks (blocks matched by allocating operator, owner and size).</source>
        <translation>A 的峰值 %1（%2），B 的峰值 %3（%4）：B − A = %5。仅在 B 峰值时存活：%6，共 %7 个内存块；仅在 A 峰值时存活：%8，共 %9 个内存块（按分配算子、归属和大小配对内存块）。</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="132"/>
        <source>B (adds)</source>
        <translation>B（多出）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="132"/>
        <source>A (removes)</source>
        <translation>A（减少）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="133"/>
        <source>(no operator)</source>
        <translation>（无算子）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorycomparepanel.cpp" line="134"/>
        <source>(untagged)</source>
        <translation>（未标记）</translation>
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
        <translation>A：最多存活 %1</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="70"/>
        <source>A: not run</source>
        <translation>A：未运行</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="71"/>
        <source>B: %1 live at most</source>
        <translation>B：最多存活 %1</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="71"/>
        <source>B: not run</source>
        <translation>B：未运行</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="73"/>
        <source>B - A: %1</source>
        <translation>B - A：%1</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="84"/>
        <source>No outermost operators in either run to align</source>
        <translation>两次运行中都没有可对齐的最外层算子</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="101"/>
        <source>B - A</source>
        <translation>B - A</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="142"/>
        <source>A: most live bytes per operator</source>
        <translation>A：每个算子的最大存活字节</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="143"/>
        <source>B: most live bytes per operator</source>
        <translation>B：每个算子的最大存活字节</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="144"/>
        <source>B needs more</source>
        <translation>B 需要更多</translation>
    </message>
    <message>
        <location filename="../views/memory/memorydiffchart.cpp" line="145"/>
        <source>B needs less</source>
        <translation>B 需要更少</translation>
    </message>
</context>
<context>
    <name>MemoryMinimap</name>
    <message>
        <location filename="../views/memory/memoryminimap.cpp" line="21"/>
        <source>The whole capture: click to go there, drag to move the shown range, wheel to zoom</source>
        <translation>整个采集：单击跳转到该处，拖动移动显示范围，滚轮缩放</translation>
    </message>
    <message>
        <location filename="../views/memory/memoryminimap.cpp" line="105"/>
        <source>overview</source>
        <translation>概览</translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="39"/>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="39"/>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="39"/>
        <source>Blocks</source>
        <translation>内存块</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="71"/>
        <source>Density</source>
        <translation>密度</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="74"/>
        <source>Where blocks are narrower than a pixel, show how full each byte band of the stack is (pale: a few bytes live, dark: all of them) rather than the extent of the blocks, so fragmentation shows without zooming.</source>
        <translation>内存块窄于一个像素时，显示堆叠中每个字节带的占用程度（浅色：少量字节存活，深色：全部存活），而不是内存块的范围，无需放大即可看出碎片。</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="81"/>
        <source>Blocks stay in place</source>
        <translation>内存块保持原位</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="82"/>
        <source>Blocks slide down (memory_viz)</source>
        <translation>内存块下移 (memory_viz)</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="83"/>
        <source>Stay in place: each block keeps its place for its whole life, so the gaps freed blocks leave show fragmentation. Slide down: the live blocks are stacked in allocation order with no gap, and when one is freed the blocks above it slide down, as PyTorch&apos;s memory_viz draws them.</source>
        <translation>保持原位：每个内存块在整个生命周期内位置不变，释放后留下的空隙可显示碎片。下移：存活的内存块按分配顺序无间隙堆叠，某块释放后其上方的块随之下移，与 PyTorch 的 memory_viz 画法相同。</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="100"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="101"/>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="150"/>
        <source>%1 — %2 blocks, %3 steps, %4 operators; peak %5 live at %6; %7 step leaks, %8 blocks alive at the end, %9 inefficient. Wheel: zoom, drag: pan, double click: whole capture.</source>
        <translation>%1 — %2 个内存块，%3 个 step，%4 个算子；峰值 %5（位于 %6）；%7 个 step 泄漏，%8 个内存块直到结束仍存活，%9 个低效。滚轮：缩放，拖动：平移，双击：显示全部。</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="181"/>
        <source>Live at %1: %2 in %3 blocks, by owner</source>
        <translation>%1 时存活：%2，共 %3 个内存块，按所有者</translation>
    </message>
    <message>
        <location filename="../views/memory/memorypanel.cpp" line="193"/>
        <source>(untagged)</source>
        <translation>（未标记）</translation>
    </message>
</context>
<context>
    <name>MemoryTimelineView</name>
    <message>
        <location filename="../views/memory/memorytimelineview.cpp" line="310"/>
        <source>Open a memory dump (File → Open memory dump…)</source>
        <translation>请打开内存转储（文件 → 打开内存转储…）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinerender.cpp" line="176"/>
        <source>peak %1 at %2</source>
        <translation>峰值 %1，位于 %2</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="63"/>
        <source>steps</source>
        <translation>step</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="64"/>
        <source>operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="74"/>
        <source>marks</source>
        <translation>标记</translation>
    </message>
    <message numerus="yes">
        <location filename="../views/memory/memorytimelinedecor.cpp" line="136"/>
        <source>block (%Ln blocks)</source>
        <translation>
            <numerusform>内存块（%Ln 个）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="139"/>
        <source>sub-pixel blocks: share of each byte band live, 0–100 %</source>
        <translation>亚像素内存块：各字节带存活比例 0–100 %</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="139"/>
        <source>band live 0–100 %</source>
        <translation>字节带存活 0–100 %</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="140"/>
        <source>step leak</source>
        <translation>step 泄漏</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="141"/>
        <source>alive at the end (never freed)</source>
        <translation>结束时仍存活（从未释放）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="141"/>
        <source>alive at the end</source>
        <translation>结束时仍存活</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="142"/>
        <source>inefficient (early, late or idle)</source>
        <translation>低效（过早申请、过晚释放或闲置）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="142"/>
        <source>inefficient</source>
        <translation>低效</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="143"/>
        <source>live bytes (max per pixel)</source>
        <translation>存活字节（每像素最大值）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="143"/>
        <source>live bytes</source>
        <translation>存活字节</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="145"/>
        <source>HAL blocks (no pool rows)</source>
        <translation>HAL 内存块（无内存池记录）</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedecor.cpp" line="145"/>
        <source>HAL blocks</source>
        <translation>HAL 内存块</translation>
    </message>
    <message>
        <location filename="../views/memory/memorytimelinedensity.cpp" line="173"/>
        <source>Bytes %1 – %2 of the stack: %3 % live on average over this pixel column</source>
        <translation>堆叠中第 %1 – %2 字节：在此像素列内平均 %3 % 存活</translation>
    </message>
</context>
<context>
    <name>NodeDetailsModel</name>
    <message>
        <location filename="../views/details/nodedetailsmodel.cpp" line="96"/>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <location filename="../views/details/nodedetailsmodel.cpp" line="96"/>
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
        <location filename="../views/graph/nodelistpanel.cpp" line="214"/>
        <source>Top of the list</source>
        <translation>已到列表顶部</translation>
    </message>
    <message>
        <location filename="../views/graph/nodelistpanel.cpp" line="218"/>
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
        <location filename="../app/studio/pairdialog.cpp" line="24"/>
        <source>Open problem/bench pair</source>
        <translation>打开问题/标杆对</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="26"/>
        <source>&amp;Problem dump:</source>
        <translation>问题侧 dump(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="26"/>
        <source>Problem (debug) dump folder</source>
        <translation>问题（调试）侧 dump 目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="27"/>
        <source>&amp;Bench dump:</source>
        <translation>标杆侧 dump(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="27"/>
        <source>Benchmark dump folder</source>
        <translation>标杆侧 dump 目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="28"/>
        <source>&amp;Output folder:</source>
        <translation>输出目录(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="28"/>
        <source>Folder for the vis.db</source>
        <translation>vis.db 的存放目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="29"/>
        <source>a new folder in the cache</source>
        <translation>缓存中的新目录</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="32"/>
        <source>&amp;Fuzzy match (-fm): ignore call counters inside matched modules</source>
        <translation>模糊匹配 (-fm)(&amp;F)：在已匹配模块内忽略调用计数</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="33"/>
        <source>O&amp;verflow check (-oc): grade NaN/Inf anomalies</source>
        <translation>溢出检测 (-oc)(&amp;V)：对 NaN/Inf 异常分级</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="57"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="80"/>
        <source>Choose the %1 folder.</source>
        <translation>请选择%1文件夹。</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="83"/>
        <source>The %1 folder does not exist: %2</source>
        <translation>%1文件夹不存在：%2</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="85"/>
        <source>The %1 path is not a folder: %2</source>
        <translation>%1路径不是文件夹：%2</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="88"/>
        <source>problem dump</source>
        <translation>问题 dump</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="90"/>
        <source>bench dump</source>
        <translation>标杆 dump</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="94"/>
        <source>The layer mapping is not a file: %1</source>
        <translation>层映射不是文件：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="100"/>
        <source>Parallel &amp;merge: one graph per data-parallel copy (--rank_size, --tp, --pp, --vpp, --order)</source>
        <translation>并行合并(&amp;M)：每个数据并行副本一张图（--rank_size、--tp、--pp、--vpp、--order）</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="104"/>
        <source>Problem</source>
        <translation>问题侧</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="105"/>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>Ranks (--rank_size):</source>
        <translation>Rank 数（--rank_size）：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>TP (--tp):</source>
        <translation>TP（--tp）：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>PP (--pp):</source>
        <translation>PP（--pp）：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>VPP (--vpp):</source>
        <translation>VPP（--vpp）：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="106"/>
        <source>Order (--order):</source>
        <translation>顺序（--order）：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="30"/>
        <source>&amp;Layer mapping:</source>
        <translation>层映射(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="30"/>
        <source>Layer mapping YAML (-lm)</source>
        <translation>层映射 YAML（-lm）</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="30"/>
        <source>YAML files (*.yaml *.yml)</source>
        <translation>YAML 文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <location filename="../app/studio/pairdialog.cpp" line="31"/>
        <source>optional: a YAML file mapping renamed layers (-lm)</source>
        <translation>可选：映射重命名层的 YAML 文件（-lm）</translation>
    </message>
</context>
<context>
    <name>ParallelConfigDialog</name>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="37"/>
        <source>Parallel configuration</source>
        <translation>并行配置</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="48"/>
        <source>none (no virtual pipeline)</source>
        <translation>无（不使用虚拟流水线）</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="52"/>
        <source>Embedding on a stage of its own (--standalone_embedding_stage)</source>
        <translation>嵌入层单独占一个流水线阶段（--standalone_embedding_stage）</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="53"/>
        <source>&amp;World size:</source>
        <translation>总卡数(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="54"/>
        <source>&amp;Layers:</source>
        <translation>层数(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="55"/>
        <source>&amp;Tensor parallel (TP):</source>
        <translation>张量并行 TP(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="56"/>
        <source>&amp;Pipeline parallel (PP):</source>
        <translation>流水线并行 PP(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="57"/>
        <source>Layers per &amp;virtual stage:</source>
        <translation>每个虚拟阶段的层数(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="58"/>
        <source>&amp;Order:</source>
        <translation>顺序(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="142"/>
        <source>DP %1, VPP %2, %3 TP groups; the CLI&apos;s picture: %4</source>
        <translation>DP %1，VPP %2，%3 个 TP 组；命令行生成的图片：%4</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelconfigdialog.cpp" line="155"/>
        <source>The dumps&apos; group_ranks [%1] is not a TP group of this configuration; check the order.</source>
        <translation>dump 中的 group_ranks [%1] 不是此配置下的 TP 组；请检查顺序。</translation>
    </message>
</context>
<context>
    <name>ParallelGrid</name>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="71"/>
        <source>PP stage %1: %2 TP groups</source>
        <translation>PP 阶段 %1：%2 个 TP 组</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="102"/>
        <source>embedding</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="104"/>
        <source>layers %1–%2</source>
        <translation>第 %1–%2 层</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="106"/>
        <source>output layer</source>
        <translation>输出层</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="107"/>
        <source>nothing (an empty chunk)</source>
        <translation>无（空的模型块）</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="111"/>
        <source>Ranks %1 (%2 TP groups)</source>
        <translation>Rank %1（%2 个 TP 组）</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="112"/>
        <source>PP stage %1, every DP copy (1–%2)</source>
        <translation>PP 阶段 %1，所有 DP 副本（1–%2）</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="114"/>
        <source>Ranks %1 (TP group %2)</source>
        <translation>Rank %1（TP 组 %2）</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="115"/>
        <source>PP stage %1, DP copy %2 of %3</source>
        <translation>PP 阶段 %1，DP 副本 %2/%3</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelgrid.cpp" line="117"/>
        <source>Virtual stage %1: %2</source>
        <translation>虚拟阶段 %1：%2</translation>
    </message>
</context>
<context>
    <name>ParallelPanel</name>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="19"/>
        <source>Colour by compare result</source>
        <translation>按比对结果着色</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="20"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="25"/>
        <source>Configure…</source>
        <translation>配置…</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="26"/>
        <source>World size, layers, TP, PP, VPP, order and standalone embedding stage, as msprobe parallel_plot takes them</source>
        <translation>总卡数、层数、TP、PP、VPP、顺序和独立嵌入阶段，与 msprobe parallel_plot 的参数相同</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="27"/>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="28"/>
        <source>Fit the grid to the panel (0); the wheel zooms, dragging pans</source>
        <translation>使网格适应面板（0）；滚轮缩放，拖动平移</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="29"/>
        <source>Fill each block with the worst compare Result of its ranks at the focused step; the copy colour stays as a band</source>
        <translation>用当前步中各 rank 最差的比对结果填充每个块；副本颜色保留为左侧色带</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="30"/>
        <source>Save the grid as PNG or SVG</source>
        <translation>将网格保存为 PNG 或 SVG</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="68"/>
        <source>The dumps tell: %1. Give the rest with Configure….</source>
        <translation>dump 中可得：%1。其余参数请通过“配置…”给出。</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelpanel.cpp" line="86"/>
        <source>From the dumps: %1</source>
        <translation>来自 dump：%1</translation>
    </message>
</context>
<context>
    <name>ParallelSetup</name>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="310"/>
        <source>No configuration: set one with Configure…</source>
        <translation>无配置：请通过“配置…”设置</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="312"/>
        <source>From the graph&apos;s parallel-merge flags.</source>
        <translation>来自构图的并行合并参数。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="315"/>
        <source>Read from the dumps.</source>
        <translation>从 dump 中读取。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="318"/>
        <source>As last set for this input.</source>
        <translation>沿用上次为此输入设置的配置。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="321"/>
        <source>As set in Configure….</source>
        <translation>按“配置…”中的设置。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="324"/>
        <source>From the command line.</source>
        <translation>来自命令行。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="351"/>
        <source>order %1: the first that makes that group a TP group</source>
        <translation>顺序 %1：第一个使该组成为 TP 组的顺序</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="354"/>
        <source>no order of tp, dp and pp makes that group a TP group: check the configuration</source>
        <translation>tp、dp、pp 的任何顺序都不能使该组成为 TP 组：请检查配置</translation>
    </message>
</context>
<context>
    <name>ParallelView</name>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="51"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="53"/>
        <source>warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="55"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="59"/>
        <source>not compared</source>
        <translation>未比对</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="224"/>
        <source>No parallel configuration. Use Configure… to give world size, layers, TP, PP and VPP, or open dumps that carry them.</source>
        <translation>没有并行配置。请通过“配置…”给出总卡数、层数、TP、PP 和 VPP，或打开包含这些信息的 dump。</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="266"/>
        <source>Virtual Pipeline Stage</source>
        <translation>虚拟流水线阶段</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="270"/>
        <source>PP stage</source>
        <translation>PP 阶段</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="270"/>
        <source>TP Group</source>
        <translation>TP 组</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="357"/>
        <source>Model Copies</source>
        <translation>模型副本</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="371"/>
        <source>… %1 more</source>
        <translation>… 另有 %1 个</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="371"/>
        <source>Model Copy %1</source>
        <translation>模型副本 %1</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="374"/>
        <source>Compare result</source>
        <translation>比对结果</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="466"/>
        <source>Select rank</source>
        <translation>选择 rank</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="470"/>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="476"/>
        <source>Fit to view</source>
        <translation>适应视图</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="504"/>
        <source>Compare: %1 (worst of its ranks)</source>
        <translation>比对：%1（其各 rank 中最差）</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="533"/>
        <source>%1: there is no parallel configuration to draw</source>
        <translation>%1：没有可绘制的并行配置</translation>
    </message>
    <message>
        <location filename="../views/parallel/parallelview.cpp" line="543"/>
        <location filename="../views/parallel/parallelview.cpp" line="547"/>
        <location filename="../views/parallel/parallelview.cpp" line="552"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/studio/reportexport.cpp" line="59"/>
        <source>There is no comparison to export.</source>
        <translation>没有可导出的比对结果。</translation>
    </message>
    <message>
        <location filename="../app/studio/reportexport.cpp" line="66"/>
        <source>There is no comparison for step %1, rank %2 to export.</source>
        <translation>step %1、rank %2 没有可导出的比对结果。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="39"/>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="52"/>
        <source>Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).</source>
        <translation>请打开一个路径（dump 目录、.vis.db 或比对 CSV）或两个 dump 目录（问题侧、标杆侧）。</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="50"/>
        <source>world_size, tp, pp, vpp and order: the graph&apos;s parallel-merge flags (--rank_size %1 --tp %2 --pp %3 --vpp %4 --order %5)</source>
        <translation>world_size、tp、pp、vpp 和 order：构图的并行合并参数（--rank_size %1 --tp %2 --pp %3 --vpp %4 --order %5）</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="139"/>
        <source>world_size %1: the rank folders of the dump</source>
        <translation>world_size %1：dump 中的 rank 目录</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="142"/>
        <source>world_size %1: the ranks opened</source>
        <translation>world_size %1：已打开的 rank</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="165"/>
        <source>%1 (step %2, rank %3 of the graph)</source>
        <translation>%1（图的 step %2，rank %3）</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="175"/>
        <source>tp %1: group_ranks %2 of the first reduce_scatter/all_reduce in %3</source>
        <translation>tp %1：%3 中第一个 reduce_scatter/all_reduce 的 group_ranks %2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="188"/>
        <source>num_layers %1: the layers.N modules of the merged graph</source>
        <translation>num_layers %1：合并图中的 layers.N 模块</translation>
    </message>
    <message>
        <location filename="../app/studio/session/parallelsetup.cpp" line="189"/>
        <source>num_layers %1: %2 layers.N modules in a rank&apos;s graph × pp %3</source>
        <translation>num_layers %1：单个 rank 图中的 %2 个 layers.N 模块 × pp %3</translation>
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
        <location filename="../app/studio/session/studiosession.cpp" line="102"/>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="195"/>
        <source>No model graph for this dump: %1</source>
        <translation>此 dump 无法生成模型图：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="213"/>
        <source>Graph: %1</source>
        <translation>图：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="228"/>
        <source>Compare: %1</source>
        <translation>比对：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="252"/>
        <source>Dump summary: %1</source>
        <translation>Dump 概要：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/studiosession.cpp" line="357"/>
        <source>No compare graph is open for matching.</source>
        <translation>没有打开可用于匹配的比对图。</translation>
    </message>
</context>
<context>
    <name>StudioVerdict</name>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="50"/>
        <source>First divergence: %1 — why: %2</source>
        <translation>首个分歧：%1 — 原因：%2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="52"/>
        <source>No divergence: every entry stays within tolerance</source>
        <translation>无分歧：所有条目均在容差范围内</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="54"/>
        <source>NaN/Inf first at %1</source>
        <translation>NaN/Inf 首次出现于 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="56"/>
        <source>1 row unpaired</source>
        <translation>1 行未配对</translation>
    </message>
    <message>
        <location filename="../app/studio/session/pairverdict.cpp" line="57"/>
        <source>%1 rows unpaired</source>
        <translation>%1 行未配对</translation>
    </message>
</context>
<context>
    <name>TrendHeatmap</name>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="113"/>
        <source>first divergence</source>
        <translation>首个分歧</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="182"/>
        <location filename="../views/trend/trendheatmap.cpp" line="286"/>
        <source>relative difference</source>
        <translation>相对误差</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="274"/>
        <source>no data (no row)</source>
        <translation>无数据（无记录）</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="277"/>
        <source>no data (NULL: NaN in the run)</source>
        <translation>无数据（NULL：运行中为 NaN）</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="286"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../views/trend/trendheatmap.cpp" line="288"/>
        <source>first divergence of this target</source>
        <translation>该目标的首个分歧</translation>
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
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="190"/>
        <source>Statistic</source>
        <translation>统计量</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="191"/>
        <source>Dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="192"/>
        <source>Value</source>
        <translation>取值</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="193"/>
        <source>Tags (all must match)</source>
        <translation>标签（须全部匹配）</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="194"/>
        <source>Heat-map mode</source>
        <translation>热力图模式</translation>
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
        <translation>模块名</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="198"/>
        <source>Continuous</source>
        <translation>渐变模式</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="199"/>
        <source>Piecewise (3-sigma)</source>
        <translation>分段模式（3-sigma）</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="200"/>
        <source>Filter tags…</source>
        <translation>过滤标签…</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="201"/>
        <source>Difference (problem vs bench)</source>
        <translation>差异（问题侧对标杆侧）</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="202"/>
        <source>Grey cells: no data (no row, or NULL: NaN in the run). Click a cell for its line; wheel zooms, drag pans.</source>
        <translation>灰色单元格：无数据（无记录，或 NULL：运行中为 NaN）。单击单元格查看其折线；滚轮缩放，拖动平移。</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="203"/>
        <source>Clear lines</source>
        <translation>清空折线</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="204"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="205"/>
        <source>No trend database open. Use File &gt; Open trend database…, or drop a *.trend.db, a monitor output folder or a dump folder here (two: problem and bench).</source>
        <translation>未打开趋势数据库。请使用 文件 &gt; 打开趋势数据库…，或将 *.trend.db、monitor 输出目录或 dump 目录拖放到此处（两个：问题侧和标杆侧）。</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="327"/>
        <source>%1 (category %2)</source>
        <translation>%1（类别 %2）</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="398"/>
        <source>Target id</source>
        <translation>目标 ID</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="405"/>
        <source>%1: no divergence over %2 series (tolerance %3).</source>
        <translation>%1：%2 条序列均无分歧（容差 %3）。</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="408"/>
        <source>First divergence (%1): %2 %3, rank %4, step %5, relative difference %6. Marked cells: each target&apos;s first divergent step.</source>
        <translation>首个分歧（%1）：%2 %3，rank %4，step %5，相对误差 %6。带标记的单元格：每个目标首次分歧的 step。</translation>
    </message>
    <message>
        <location filename="../views/trend/trendpanel.cpp" line="401"/>
        <source>Could not read the heat map: %1</source>
        <translation>无法读取热力图：%1</translation>
    </message>
</context>
<context>
    <name>TrendSource</name>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="135"/>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="178"/>
        <source>importing %1: %2 of %3</source>
        <translation>正在导入 %1：%2 / %3</translation>
    </message>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="385"/>
        <source>problem %1</source>
        <translation>问题侧 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/session/trendsource.cpp" line="416"/>
        <source>bench %1</source>
        <translation>标杆侧 %1</translation>
    </message>
</context>
<context>
    <name>VerdictBar</name>
    <message>
        <location filename="../views/verdictbar.cpp" line="31"/>
        <source>Click to select %1</source>
        <translation>单击以选中 %1</translation>
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
        <translation>将问题运行与标杆运行进行比对：模型图、比对表以及首个分歧位置。
也可以把一个 dump 目录、两个目录、vis.db 或比对 CSV 拖放到此窗口。</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="50"/>
        <source>Open a dump folder…</source>
        <translation>打开 dump 目录…</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="51"/>
        <source>Open a problem/bench pair…</source>
        <translation>打开问题/标杆对…</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="56"/>
        <source>Open the bundled sample pair</source>
        <translation>打开自带的示例对</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="78"/>
        <source>Open recent</source>
        <translation>最近打开</translation>
    </message>
    <message>
        <location filename="../app/studio/welcomepage.cpp" line="83"/>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
</context>
<context>
    <name>headlessexport</name>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="63"/>
        <location filename="../app/studio/headlessexport.cpp" line="66"/>
        <location filename="../app/studio/headlessexport.cpp" line="68"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="74"/>
        <source>%1: no verdict to write; a JSON export needs a problem/bench pair of dump folders (not a vis.db or a CSV).</source>
        <translation>%1：没有可写入的结论；JSON 导出需要一对问题/标杆 dump 目录（而不是 vis.db 或 CSV）。</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="109"/>
        <source>%1: --view parallel writes .png or .svg</source>
        <translation>%1：--view parallel 只能写 .png 或 .svg</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="159"/>
        <source>--view parallel needs --world_size and --num_layers (the inputs do not give them)</source>
        <translation>--view parallel 需要 --world_size 和 --num_layers（输入中没有这些信息）</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="165"/>
        <source>--vpp %1: the %2 layers do not split into %3 pipeline stage(s) of %1 virtual stage(s)</source>
        <translation>--vpp %1：%2 层无法分成 %3 个流水线阶段、每阶段 %1 个虚拟阶段</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="179"/>
        <source>parallel configuration: %1</source>
        <translation>并行配置：%1</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="209"/>
        <source>--step and --rank go together</source>
        <translation>--step 和 --rank 须同时给出</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="214"/>
        <source>give one input (a dump folder, dump.json, .vis.db or compare CSV) or two dump folders (problem, bench)</source>
        <translation>请给出一个输入（dump 目录、dump.json、.vis.db 或比对 CSV）或两个 dump 目录（问题侧、标杆侧）</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="131"/>
        <location filename="../app/studio/headlessexport.cpp" line="230"/>
        <source>%1: loading took too long</source>
        <translation>%1：加载耗时过长</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="89"/>
        <source>--view memory takes one input: a msMemScope dump (.csv or .db)</source>
        <translation>--view memory 只接受一个输入：msMemScope 转储（.csv 或 .db）</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="119"/>
        <source>%1: the trend view exports .png, .svg or .csv</source>
        <translation>%1：趋势视图可导出 .png、.svg 或 .csv</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="121"/>
        <source>give one input (a *.trend.db, a monitor or dump folder) or two (problem, bench)</source>
        <translation>请给出一个输入（*.trend.db、monitor 目录或 dump 目录）或两个（问题侧、标杆侧）</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="133"/>
        <location filename="../app/studio/headlessexport.cpp" line="232"/>
        <source>loading was cancelled</source>
        <translation>加载已取消</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="196"/>
        <source>%1: unknown export format; the file name must end in .png, .svg, .html or .json (or .csv with --view trend)</source>
        <translation>%1：未知的导出格式；文件名须以 .png、.svg、.html 或 .json 结尾（--view trend 时也可为 .csv）</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="199"/>
        <source>%1: the memory view exports as .png or .svg</source>
        <translation>%1：内存视图只能导出为 .png 或 .svg</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="203"/>
        <source>--view %1: unknown view; use graph, compare, trend, parallel or memory</source>
        <translation>--view %1：未知视图；请使用 graph、compare、trend、parallel 或 memory</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="207"/>
        <source>%1: a CSV export is the trend view&apos;s cells (--view trend)</source>
        <translation>%1：CSV 导出的是趋势视图的单元格（--view trend）</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="239"/>
        <source>step %1, rank %2 is not in %3 (steps: %4; ranks: %5)</source>
        <translation>%3 中没有 step %1、rank %2（step：%4；rank：%5）</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="253"/>
        <source>%1: no comparison to report; an HTML export needs a problem/bench pair of dump folders.</source>
        <translation>%1：没有可报告的比对；HTML 导出需要一对问题/标杆 dump 目录。</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="259"/>
        <source>%1: step %2, rank %3 has no compare table</source>
        <translation>%1：step %2、rank %3 没有比对表</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="263"/>
        <source>%1: no graph for step %2, rank %3. %4</source>
        <translation>%1：step %2、rank %3 没有图。%4</translation>
    </message>
    <message>
        <location filename="../app/studio/headlessexport.cpp" line="266"/>
        <source>%1: laying out the graph took too long</source>
        <translation>%1：图布局耗时过长</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/studio/main.cpp" line="76"/>
        <source>Numerical-accuracy workstation for msprobe dumps.</source>
        <translation>msprobe dump 数值精度分析工作站。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="80"/>
        <source>A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH.</source>
        <translation>一个 dump 目录、dump.json、.vis.db 或比对 CSV；或两个 dump 目录：问题侧 标杆侧。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="83"/>
        <source>Save a PNG of the window once loading is done, then quit (for docs and checks).</source>
        <translation>加载完成后保存窗口的 PNG 截图并退出（用于文档和检查）。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="87"/>
        <source>Open a msMemScope memory dump (.csv or .db) or a PyTorch memory snapshot (.pickle) in the memory timeline.</source>
        <translation>在内存时间线中打开 msMemScope 内存转储（.csv 或 .db）或 PyTorch 内存快照（.pickle）。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="90"/>
        <source>With --memory: a second memory dump to compare it with (the memory panel&apos;s compare tab).</source>
        <translation>与 --memory 一起使用：用于比较的第二个内存转储（内存面板的比较页）。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="94"/>
        <source>Open the input without a window, write FILE by its extension (.png, .svg: the view&apos;s picture; .html: the report; .json: the verdicts, as msprobe compare --json) and exit: 0 done, 1 failed.</source>
        <translation>不显示窗口打开输入，按扩展名写出 FILE（.png、.svg：视图图片；.html：报告；.json：结论，与 msprobe compare --json 相同）后退出：0 成功，1 失败。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="97"/>
        <source>With --export: the view to draw, graph (default), compare, trend, parallel or memory. Without: parallel shows the parallelism panel in front.</source>
        <translation>与 --export 一起使用：要绘制的视图，graph（默认）、compare、trend、parallel 或 memory。单独使用时：parallel 将并行面板置于最前。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="99"/>
        <source>With --export: the step to show (with --rank).</source>
        <translation>与 --export 一起使用：要显示的 step（与 --rank 一起）。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="100"/>
        <source>With --export: the rank to show (with --step).</source>
        <translation>与 --export 一起使用：要显示的 rank（与 --step 一起）。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="103"/>
        <source>With --view parallel: the world size.</source>
        <translation>与 --view parallel 一起使用：总卡数。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="104"/>
        <source>With --view parallel: the number of transformer layers.</source>
        <translation>与 --view parallel 一起使用：Transformer 层数。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="106"/>
        <source>With --view parallel: the tensor-parallel size.</source>
        <translation>与 --view parallel 一起使用：张量并行大小。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="108"/>
        <source>With --view parallel: the pipeline-parallel size.</source>
        <translation>与 --view parallel 一起使用：流水线并行大小。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="110"/>
        <source>With --view parallel: layers per virtual pipeline stage.</source>
        <translation>与 --view parallel 一起使用：每个虚拟流水线阶段的层数。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="112"/>
        <source>With --view parallel: the number of virtual pipeline stages (as graph_visualize --vpp).</source>
        <translation>与 --view parallel 一起使用：虚拟流水线阶段数（同 graph_visualize --vpp）。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="113"/>
        <source>With --view parallel: the rank order, e.g. tp-cp-ep-dp-pp.</source>
        <translation>与 --view parallel 一起使用：rank 顺序，例如 tp-cp-ep-dp-pp。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="115"/>
        <source>With --view parallel: the embedding has a pipeline stage of its own.</source>
        <translation>与 --view parallel 一起使用：嵌入层单独占一个流水线阶段。</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="134"/>
        <source>--%1 takes a whole number, not &apos;%2&apos;</source>
        <translation>--%1 需要整数，而不是“%2”</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="153"/>
        <source>--step and --rank take whole numbers</source>
        <translation>--step 和 --rank 须为整数</translation>
    </message>
    <message>
        <location filename="../app/studio/main.cpp" line="160"/>
        <source>written %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
</TS>
