"""Wrong solutions for notebook 02's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): how many files each line makes the loader read.
    Wrong.edit(1, "computed_answer", ('"A": 0', '"A": len(TEXT_FILES) - 4')),
    Wrong.edit(1, "kept_items_counted", ('"D": 3', '"D": 2')),
    Wrong.edit(1, "calling_reads_one", ('"A": 0', '"A": 1')),
    Wrong.edit(1, "load_reads_one", ('"B": 4', '"B": 1'), ('"E": 2', '"E": 3')),
    # Exercise 2 (debug): the same Documents as log_lines, one line read per Document.
    Wrong(2, "harness_skipped", STUB, forget=("log_lines", "CountingStream")),
    Wrong(2, "newline_stripped_only", '''def lazy_lines(stream, source):
    for number, line in enumerate(stream, start=1):
        text = line.rstrip("\\n")
        if text.strip():
            yield Document(text, metadata={"source": source, "line": number})
'''),
    Wrong.edit(2, "windows_endings_stripped_only",
               ('line.rstrip("\\n")', 'line.rstrip("\\r\\n")'), like="newline_stripped_only"),
    Wrong.edit(2, "every_space_stripped", ('line.rstrip("\\n")', "line.strip()"), like="newline_stripped_only"),
    Wrong.edit(2, "first_piece_of_each_line",
               ('line.rstrip("\\n")', '(line.splitlines() or [""])[0]'), like="newline_stripped_only"),
    Wrong.edit(2, "reads_everything", ("for raw in stream:", "for raw in stream.readlines():"), hints=False),
    Wrong.edit(2, "blank_lines_not_counted", ("number += 1\n            if line.strip():",
                                              "if line.strip():\n                number += 1"), hints=False),
    # Exercise 3 (extend): the chunks of load_and_split, split as the documents come.
    Wrong(3, "harness_skipped", STUB, forget=("RealTextFileLoader", "TEXT_FILES")),
    Wrong(3, "loads_everything_first", '''def lazy_split(loader, text_splitter):
    yield from text_splitter.split_documents(loader.load())
'''),
    Wrong.edit(3, "documents_not_split",
               ("text_splitter.split_documents(loader.load())", "loader.lazy_load()"), like="loads_everything_first"),
    Wrong.edit(3, "metadata_lost", ("yield from text_splitter.split_documents([document])",
                                    "for text in text_splitter.split_text(document.page_content):\n"
                                    "            yield Document(text)"), hints=False),
]
