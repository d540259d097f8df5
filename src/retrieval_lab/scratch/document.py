# GENERATED from notebooks/01_document.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/01_document.ipynb, cell 7
from collections.abc import Mapping
from decimal import Decimal
from typing import Any


def _validated_text(value: Any) -> str:
    """page_content must be text: everything downstream (splitting, embedding) assumes
    it. Bytes are refused as well: only the caller knows their encoding.
    """
    if isinstance(value, bytes | bytearray):
        raise TypeError(
            f"page_content must be a str, got {type(value).__name__} {value!r}. "
            "Decode it first, e.g. Document(data.decode('utf-8')): only you know "
            "its encoding."
        )
    if not isinstance(value, str):
        raise TypeError(
            f"page_content must be a str, got {type(value).__name__} {value!r}. "
            f"Convert it first, e.g. Document(page_content=str(value))."
        )
    return str.__str__(value)  # a str subclass (a str enum, say) becomes plain text


# %% notebooks/01_document.ipynb, cell 9
def _validated_metadata(value: Any) -> dict[str, Any]:
    """A shallow copy of a mapping: the Document owns its dict, but not what the dict
    holds.
    """
    if not isinstance(value, Mapping):
        raise TypeError(
            f"metadata must be a dict, got {type(value).__name__} {value!r}. "
            "Pass e.g. metadata={'source': 'notes.txt'}, or leave it out for {}."
        )
    return dict(value)


def _validated_id(value: Any) -> str | None:
    """None, text, or a number stored as its str (bool is not a number here). Bytes are
    refused, as for page_content.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return str(value)
    raise TypeError(
        "id must be a str (or a number, stored as text), got "
        f"{type(value).__name__} {value!r}."
    )


# %% notebooks/01_document.ipynb, cell 11
_NO_METADATA: Mapping[str, Any] = {}


# %% notebooks/01_document.ipynb, cell 12
class Document:
    """A piece of text, what is known about it, and an optional key: langchain's fields,
    printing and equality, but stricter: no bytes, no unknown keywords.
    """

    def __init__(
        self,
        page_content: str,
        *,
        metadata: Mapping[str, Any] = _NO_METADATA,
        id: str | int | float | Decimal | None = None,  # the real field is called id
        type: str = "Document",  # the real field is called type
    ) -> None:
        if type != "Document":
            raise ValueError(
                f"type is fixed to 'Document', got {type!r}; leave it out."
            )
        self.page_content: str = _validated_text(page_content)
        self.metadata: dict[str, Any] = _validated_metadata(metadata)
        self.id: str | None = _validated_id(id)
        self.type = "Document"

    # mutable, like the real one: it cannot be a dict key or a set member
    __hash__ = None


# %% notebooks/01_document.ipynb, cell 17
def _document_repr(self: Document) -> str:
    fields = ([f"id={self.id!r}"] if self.id is not None else []) + [
        f"metadata={self.metadata!r}",
        f"page_content={self.page_content!r}",
    ]
    return f"Document({', '.join(fields)})"


def _document_str(self: Document) -> str:
    if self.metadata:
        return f"page_content='{self.page_content}' metadata={self.metadata}"
    return f"page_content='{self.page_content}'"


Document.__repr__ = _document_repr
Document.__str__ = _document_str


# %% notebooks/01_document.ipynb, cell 21
from retrieval_lab.runtime.oop import add_to_class

_FIELDS = ("page_content", "metadata", "id", "type")


@add_to_class(Document)
def __eq__(self: Document, other: object) -> bool:
    """Equal to any document, ours or langchain's, with the same four fields."""
    try:
        theirs = tuple(getattr(other, name) for name in _FIELDS)
    except AttributeError:
        return NotImplemented  # not a document: let the other side answer
    return tuple(getattr(self, name) for name in _FIELDS) == theirs
