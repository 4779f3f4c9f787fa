<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CompareTableView</name>
    <message>
        <source>Filter by NPU or bench name…</source>
        <translation>按 NPU 或标杆名称过滤…</translation>
    </message>
    <message>
        <source>All results</source>
        <translation>全部结果</translation>
    </message>
    <message>
        <source>Warning and error</source>
        <translation>告警和错误</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>%1 of %2 rows</source>
        <translation>%1 / %2 行</translation>
    </message>
    <message>
        <source>All steps and ranks</source>
        <translation>所有步骤和卡</translation>
    </message>
    <message>
        <source>Show the rows of every compared step and rank, with Step and Rank columns</source>
        <translation>显示所有已比对的步骤和卡的行，并带有 Step 和 Rank 列</translation>
    </message>
</context>
<context>
    <name>DumpSummaryModel</name>
    <message>
        <source>(single step)</source>
        <translation>（单个 step）</translation>
    </message>
    <message>
        <source>Step / rank</source>
        <translation>Step / rank</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Param grads</source>
        <translation>参数梯度</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
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
        <translation>精度</translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation>溢出</translation>
    </message>
    <message>
        <source>Colour nodes by precision level or by overflow level (needs a db made with -oc)</source>
        <translation>按精度等级或溢出等级给节点着色（溢出需使用 -oc 生成的数据库）</translation>
    </message>
    <message>
        <source>Sync expand</source>
        <translation>同步展开</translation>
    </message>
    <message>
        <source>Expanding a node also expands its match on the other side</source>
        <translation>展开节点时同时展开另一侧的匹配节点</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Fit both graphs to the window</source>
        <translation>将两侧图适应窗口大小</translation>
    </message>
    <message>
        <source>First divergence</source>
        <translation>首个差异</translation>
    </message>
    <message>
        <source>Go to the first error-level node in execution order</source>
        <translation>按执行顺序跳转到第一个错误级节点</translation>
    </message>
    <message>
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
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
    <message>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <source>Locate matched node</source>
        <translation>定位匹配节点</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Show details</source>
        <translation>显示详情</translation>
    </message>
    <message>
        <source>Unmatch</source>
        <translation>取消匹配</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Nothing to export yet: the graph is not laid out</source>
        <translation>暂无可导出内容：图尚未完成布局</translation>
    </message>
    <message>
        <source>msprobe graph diff</source>
        <translation>msprobe 图差异</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>The picture is too large to render (%1 x %2)</source>
        <translation>图片过大，无法渲染（%1 x %2）</translation>
    </message>
    <message>
        <source>Data send</source>
        <translation>数据发送</translation>
    </message>
    <message>
        <source>Data receive</source>
        <translation>数据接收</translation>
    </message>
    <message>
        <source>Data send-receive</source>
        <translation>数据发送-接收</translation>
    </message>
    <message>
        <source>Debug mini-map</source>
        <translation>调试侧缩略图</translation>
    </message>
    <message>
        <source>Bench mini-map</source>
        <translation>标杆侧缩略图</translation>
    </message>
</context>
<context>
    <name>GraphLegend</name>
    <message>
        <source>Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: API list (standalone APIs between modules). Dotted box: multi collection (fused operators). A badge on a collapsed module counts the warnings and errors inside it, in the worst colour.</source>
        <translation>圆角框：模块（双击展开）。椭圆：无子节点的节点。虚线框：API 列表（模块之间的独立 API）。点线框：融合算子集合。折叠模块上的角标统计其内部的告警和错误数，颜色取最严重者。</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Leaf</source>
        <translation>叶子节点</translation>
    </message>
    <message>
        <source>API list</source>
        <translation>API 列表</translation>
    </message>
    <message>
        <source>Multi collection</source>
        <translation>融合算子集合</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>No grade</source>
        <translation>无等级</translation>
    </message>
    <message>
        <source>Unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <source>A module or operator; double-click a module to expand it</source>
        <translation>模块或算子；双击模块可展开</translation>
    </message>
    <message>
        <source>An unexpanded node: it has no children, so it cannot be expanded</source>
        <translation>未展开节点：没有子节点，因此无法展开</translation>
    </message>
    <message>
        <source>A collection of standalone APIs between modules</source>
        <translation>模块之间独立 API 的集合</translation>
    </message>
    <message>
        <source>A collection of fused operators</source>
        <translation>融合算子的集合</translation>
    </message>
</context>
<context>
    <name>GraphMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>全局视图：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>GraphSwitcher</name>
    <message>
        <source>Training step (Alt+Left / Alt+Right)</source>
        <translation>训练 step（Alt+Left / Alt+Right）</translation>
    </message>
    <message>
        <source>Rank (Ctrl+PgUp / Ctrl+PgDown)</source>
        <translation>Rank（Ctrl+PgUp / Ctrl+PgDown）</translation>
    </message>
    <message>
        <source>Micro step: only the nodes of one micro batch</source>
        <translation>Micro step：只显示一个 micro batch 的节点</translation>
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
        <translation>全部</translation>
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
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Loading cancelled.</source>
        <translation>加载已取消。</translation>
    </message>
    <message>
        <source>%1 — msprobe studio</source>
        <translation>%1 — msprobe studio</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Open dump folder</source>
        <translation>打开 dump 目录</translation>
    </message>
    <message>
        <source>Stop loading (Esc)</source>
        <translation>停止加载（Esc）</translation>
    </message>
    <message>
        <source>Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here).</source>
        <translation>打开 dump 目录、问题/标杆对、vis.db 或比对 CSV（文件菜单，或拖放到此处）。</translation>
    </message>
    <message>
        <source>Search and filter</source>
        <translation>搜索与过滤</translation>
    </message>
    <message>
        <source>Graph diff view: not part of this build.</source>
        <translation>图差异视图：本构建未包含。</translation>
    </message>
    <message>
        <source>Node search and filters: not part of this build.</source>
        <translation>节点搜索与过滤：本构建未包含。</translation>
    </message>
    <message>
        <source>Node matching</source>
        <translation>节点匹配</translation>
    </message>
    <message>
        <source>Node matching: not part of this build.</source>
        <translation>节点匹配：本构建未包含。</translation>
    </message>
    <message>
        <source>Dump summary</source>
        <translation>Dump 概要</translation>
    </message>
    <message>
        <source>Compare table</source>
        <translation>比对表</translation>
    </message>
    <message>
        <source>Node details</source>
        <translation>节点详情</translation>
    </message>
    <message>
        <source>Node details: not part of this build.</source>
        <translation>节点详情：本构建未包含。</translation>
    </message>
    <message>
        <source>Matching failed</source>
        <translation>匹配失败</translation>
    </message>
    <message>
        <source>Open &amp;dump folder…</source>
        <translation>打开 &amp;dump 目录…</translation>
    </message>
    <message>
        <source>Open problem/bench &amp;pair…</source>
        <translation>打开问题/标杆&amp;对…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open &amp;vis.db…</source>
        <translation>打开 &amp;vis.db…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>Open vis.db</source>
        <translation>打开 vis.db</translation>
    </message>
    <message>
        <source>Graph databases (*.vis.db *.db);;All files (*)</source>
        <translation>图数据库 (*.vis.db *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open compare &amp;CSV…</source>
        <translation>打开比对 &amp;CSV…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Open compare result</source>
        <translation>打开比对结果</translation>
    </message>
    <message>
        <source>Compare results (*.csv);;All files (*)</source>
        <translation>比对结果 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Comparison as &amp;CSV…</source>
        <translation>比对结果导出为 &amp;CSV…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Comparison as &amp;XLSX…</source>
        <translation>比对结果导出为 &amp;XLSX…</translation>
    </message>
    <message>
        <source>&amp;HTML report…</source>
        <translation>&amp;HTML 报告…</translation>
    </message>
    <message>
        <source>Graph as &amp;PNG or SVG…</source>
        <translation>图导出为 &amp;PNG 或 SVG…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Filter the compare table</source>
        <translation>过滤比对表(&amp;F)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>&amp;Navigate</source>
        <translation>导航(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Next rank</source>
        <translation>下一个 rank(&amp;N)</translation>
    </message>
    <message>
        <source>Ctrl+PgDown</source>
        <translation>Ctrl+PgDown</translation>
    </message>
    <message>
        <source>&amp;Previous rank</source>
        <translation>上一个 rank(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+PgUp</source>
        <translation>Ctrl+PgUp</translation>
    </message>
    <message>
        <source>Next &amp;step</source>
        <translation>下一个 &amp;step</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>P&amp;revious step</source>
        <translation>上一个 step(&amp;R)</translation>
    </message>
    <message>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <source>Go to first &amp;divergence</source>
        <translation>跳转到首个差异(&amp;D)</translation>
    </message>
    <message>
        <source>F3</source>
        <translation>F3</translation>
    </message>
    <message>
        <source>No error-level node in this graph.</source>
        <translation>此图中没有错误级节点。</translation>
    </message>
    <message>
        <source>Cancel loading</source>
        <translation>取消加载</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The language changes the next time msprobe studio starts.</source>
        <translation>语言将在下次启动 msprobe studio 时生效。</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About msprobe studio</source>
        <translation>关于 msprobe studio(&amp;A)</translation>
    </message>
    <message>
        <source>About msprobe studio</source>
        <translation>关于 msprobe studio</translation>
    </message>
    <message>
        <source>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, node matching and reports.</source>
        <translation>&lt;b&gt;msprobe studio %1&lt;/b&gt;&lt;br&gt;msprobe dump 数值精度调试工作台：图差异、比对表、节点匹配与报告。</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>%p% — about %1 s left</source>
        <translation>%p% — 约剩 %1 秒</translation>
    </message>
    <message>
        <source>Loading: %1</source>
        <translation>正在加载：%1</translation>
    </message>
    <message>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
    <message>
        <source>Opened %1 in %2 s.</source>
        <translation>已打开 %1，用时 %2 秒。</translation>
    </message>
    <message>
        <source>The graph view is not part of this build.</source>
        <translation>本构建未包含图视图。</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>HTML report (*.html)</source>
        <translation>HTML 报告 (*.html)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Written %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export graph</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图片 (*.png);;SVG 图形 (*.svg)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>MatchController</name>
    <message>
        <source>Match %1 with %2</source>
        <translation>匹配 %1 与 %2</translation>
    </message>
    <message>
        <source>Unmatch %1</source>
        <translation>取消匹配 %1</translation>
    </message>
    <message>
        <source>Apply %1</source>
        <translation>应用 %1</translation>
    </message>
    <message>
        <source>No compare graph is open for matching.</source>
        <translation>没有打开可用于匹配的比对图。</translation>
    </message>
    <message>
        <source>A match is still being computed; try again when it is done.</source>
        <translation>仍在计算匹配，请完成后重试。</translation>
    </message>
</context>
<context>
    <name>NodeDetailsModel</name>
    <message>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
</context>
<context>
    <name>NodeDetailsPanel</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
    <message>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#808080&quot;&gt;grey&lt;/span&gt;: no item at the same position on the other side</source>
        <translation>&lt;span style=&quot;color:#808080&quot;&gt;灰色&lt;/span&gt;：另一侧相同位置没有对应项</translation>
    </message>
    <message>
        <source>Comparison details</source>
        <translation>比对详情</translation>
    </message>
    <message>
        <source>Debug stack</source>
        <translation>调试侧堆栈</translation>
    </message>
    <message>
        <source>Bench stack</source>
        <translation>标杆侧堆栈</translation>
    </message>
    <message>
        <source>Parallel merged info</source>
        <translation>并行合并信息</translation>
    </message>
    <message>
        <source>Communication peers (double-click to go)</source>
        <translation>通信对端（双击跳转）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Peer index</source>
        <translation>对端序号</translation>
    </message>
    <message>
        <source>Node information</source>
        <translation>节点信息</translation>
    </message>
    <message>
        <source>Input/Output details</source>
        <translation>输入/输出详情</translation>
    </message>
    <message>
        <source>Debug node: %1    Bench node: %2</source>
        <translation>调试侧节点：%1    标杆侧节点：%2</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>NodeListPanel</name>
    <message>
        <source>Debug</source>
        <translation>调试侧</translation>
    </message>
    <message>
        <source>Bench</source>
        <translation>标杆侧</translation>
    </message>
    <message>
        <source>Search node names</source>
        <translation>搜索节点名称</translation>
    </message>
    <message>
        <source>Regex</source>
        <translation>正则</translation>
    </message>
    <message>
        <source>Precision (leaf debug nodes)</source>
        <translation>精度（调试侧叶子节点）</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <source>Overflow</source>
        <translation>溢出</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>Previous node</source>
        <translation>上一个节点</translation>
    </message>
    <message>
        <source>Next node</source>
        <translation>下一个节点</translation>
    </message>
    <message>
        <source>Node list (%1)</source>
        <translation>节点列表（%1）</translation>
    </message>
    <message>
        <source>Invalid regular expression</source>
        <translation>无效的正则表达式</translation>
    </message>
    <message>
        <source>Top of the list</source>
        <translation>已到列表顶部</translation>
    </message>
    <message>
        <source>Bottom of the list</source>
        <translation>已到列表底部</translation>
    </message>
</context>
<context>
    <name>NodeMatchPanel</name>
    <message>
        <source>Match configuration file</source>
        <translation>匹配配置文件</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Generate match configuration file</source>
        <translation>生成匹配配置文件</translation>
    </message>
    <message>
        <source>Debug unmatched</source>
        <translation>调试侧未匹配</translation>
    </message>
    <message>
        <source>Bench unmatched</source>
        <translation>标杆侧未匹配</translation>
    </message>
    <message>
        <source>Simultaneously operate descendant nodes</source>
        <translation>同时操作子孙节点</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>匹配</translation>
    </message>
    <message>
        <source>Match nodes</source>
        <translation>匹配节点</translation>
    </message>
    <message>
        <source>Debug matched</source>
        <translation>调试侧已匹配</translation>
    </message>
    <message>
        <source>Bench matched</source>
        <translation>标杆侧已匹配</translation>
    </message>
    <message>
        <source>Unmatch</source>
        <translation>取消匹配</translation>
    </message>
    <message>
        <source>Unmatch nodes</source>
        <translation>取消节点匹配</translation>
    </message>
    <message>
        <source>total %1 / success %2 / failed %3</source>
        <translation>总数 %1 / 成功 %2 / 失败 %3</translation>
    </message>
    <message>
        <source>Pick a debug node and a bench node to match.</source>
        <translation>请选择一个调试侧节点和一个标杆侧节点进行匹配。</translation>
    </message>
    <message>
        <source>Pick a matched debug node to unmatch.</source>
        <translation>请选择一个已匹配的调试侧节点以取消匹配。</translation>
    </message>
    <message>
        <source>No .vis.config file beside the database.</source>
        <translation>数据库旁没有 .vis.config 文件。</translation>
    </message>
    <message>
        <source>Written %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>NodePickList</name>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
</context>
<context>
    <name>PairDialog</name>
    <message>
        <source>Open problem/bench pair</source>
        <translation>打开问题/标杆对</translation>
    </message>
    <message>
        <source>&amp;Problem dump:</source>
        <translation>问题侧 dump(&amp;P)：</translation>
    </message>
    <message>
        <source>Problem (debug) dump folder</source>
        <translation>问题（调试）侧 dump 目录</translation>
    </message>
    <message>
        <source>&amp;Bench dump:</source>
        <translation>标杆侧 dump(&amp;B)：</translation>
    </message>
    <message>
        <source>Benchmark dump folder</source>
        <translation>标杆侧 dump 目录</translation>
    </message>
    <message>
        <source>&amp;Output folder:</source>
        <translation>输出目录(&amp;O)：</translation>
    </message>
    <message>
        <source>Folder for the vis.db</source>
        <translation>vis.db 的存放目录</translation>
    </message>
    <message>
        <source>a new folder in the cache</source>
        <translation>缓存中的新目录</translation>
    </message>
    <message>
        <source>&amp;Fuzzy match (-fm): ignore call counters inside matched modules</source>
        <translation>模糊匹配 (-fm)(&amp;F)：在已匹配模块内忽略调用计数</translation>
    </message>
    <message>
        <source>O&amp;verflow check (-oc): grade NaN/Inf anomalies</source>
        <translation>溢出检测 (-oc)(&amp;V)：对 NaN/Inf 异常分级</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>&amp;Layer mapping:</source>
        <translation>层映射(&amp;L)：</translation>
    </message>
    <message>
        <source>Layer mapping YAML (-lm)</source>
        <translation>层映射 YAML（-lm）</translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml)</source>
        <translation>YAML 文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>optional: a YAML file mapping renamed layers (-lm)</source>
        <translation>可选：映射重命名层的 YAML 文件（-lm）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>There is no comparison to export.</source>
        <translation>没有可导出的比对结果。</translation>
    </message>
    <message>
        <source>There is no comparison for step %1, rank %2 to export.</source>
        <translation>step %1、rank %2 没有可导出的比对结果。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).</source>
        <translation>请打开一个路径（dump 目录、.vis.db 或比对 CSV）或两个 dump 目录（问题侧、标杆侧）。</translation>
    </message>
</context>
<context>
    <name>RecentFiles</name>
    <message>
        <source> vs </source>
        <translation> 对比 </translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
</context>
<context>
    <name>StudioSession</name>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 对比 %2</translation>
    </message>
    <message>
        <source>No model graph for this dump: %1</source>
        <translation>此 dump 无法生成模型图：%1</translation>
    </message>
    <message>
        <source>Graph: %1</source>
        <translation>图：%1</translation>
    </message>
    <message>
        <source>Compare: %1</source>
        <translation>比对：%1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Numerical-accuracy workstation for msprobe dumps.</source>
        <translation>msprobe dump 数值精度分析工作站。</translation>
    </message>
    <message>
        <source>A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH.</source>
        <translation>一个 dump 目录、dump.json、.vis.db 或比对 CSV；或两个 dump 目录：问题侧 标杆侧。</translation>
    </message>
    <message>
        <source>Save a PNG of the window once loading is done, then quit (for docs and checks).</source>
        <translation>加载完成后保存窗口的 PNG 截图并退出（用于文档和检查）。</translation>
    </message>
</context>
</TS>
