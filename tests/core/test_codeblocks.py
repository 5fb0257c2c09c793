from quantum_codegen_eval.codeblocks import extract_code, fenced_blocks


def test_joins_python_blocks_and_skips_other_languages():
    text = "Plan:\n```bash\npip install x\n```\n```python\na = 1\n```\ntext\n```\nb = 2\n```\n"
    assert extract_code(text) == "a = 1\n\nb = 2\n"
    assert [lang for lang, _ in fenced_blocks(text)] == ["bash", "python", ""]


def test_unterminated_fence_takes_the_rest():
    assert extract_code("```python\nimport pennylane as qml\nqml.Hadamard(0)") == (
        "import pennylane as qml\nqml.Hadamard(0)")


def test_plain_text_only_when_allowed():
    assert extract_code("x = 1") is None
    assert extract_code("x = 1", plain_ok=True) == "x = 1"
    assert extract_code("```bash\nls\n```", plain_ok=True) is None


def test_tilde_fences_and_longer_backtick_fences():
    assert extract_code("~~~py\nx = 2\n~~~") == "x = 2\n"
    assert extract_code("````python\ns = '```'\n````") == "s = '```'\n"


def test_a_closing_fence_is_never_taken_for_an_opening():
    text = "Install first:\n```bash\npip install pennylane\n```\nThen run the notebook.\n"
    assert extract_code(text) is None
    assert extract_code(text, plain_ok=True) is None
    tail = "```bash\nls\n```\nNow the code:\n```python\nx = 1\n"
    assert extract_code(tail) == "x = 1\n"


def test_last_block_policy():
    text = "draft:\n```python\na = 1\n```\nfinal:\n```py\nb = 2\n```\n"
    assert extract_code(text, which="last") == "b = 2\n"
    assert extract_code(text) == "a = 1\n\nb = 2\n"
    assert extract_code("x = 1", plain_ok=True, which="last") == "x = 1"
