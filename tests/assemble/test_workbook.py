"""results.xlsx: a sheet per benchmark, header frozen and filtered, numbers as numbers, the focus's
rows marked and shaded, missing values empty, the same sheets in the same bytes."""

from __future__ import annotations

import io
import time

import openpyxl
import pandas as pd
import pytest

from mlperf_report.assemble import workbook
from mlperf_report.core import paths
from mlperf_report.core.config import load_config
from mlperf_report.suites import suite_for


def sheets():
    return {"bert": pd.DataFrame({"Focus": [True, False], "System": ["IPU-POD16", "DGX A100"],
                                  "Accelerators": pd.array([16, pd.NA], dtype="Int64"),
                                  "Time to train (minutes)": [34.49, float("nan")]}),
            "a/b:c*?[x]" + "y" * 40: pd.DataFrame({"Focus": [False], "System": ["z"]})}


def test_a_sheet_per_benchmark_with_numbers_as_numbers_and_the_focus_marked():
    book = openpyxl.load_workbook(io.BytesIO(workbook.workbook_bytes(sheets())))
    assert book.sheetnames[0] == "bert" and len(book.sheetnames[1]) == 31 and not set("/:*?[]") & set(book.sheetnames[1])
    bert = book["bert"]
    assert bert.freeze_panes == "A2" and bert.auto_filter.ref == "A1:D3"
    assert [c.value for c in bert[1]] == ["Focus", "System", "Accelerators", "Time to train (minutes)"]
    assert [c.value for c in bert[2]] == ["focus", "IPU-POD16", 16, 34.49]
    assert [c.value for c in bert[3]] == [None, "DGX A100", None, None]       # missing: empty, not "nan"
    assert bert["B2"].fill.fgColor.rgb.endswith(workbook.FOCUS_FILL) and bert["B3"].fill.fill_type is None


def test_the_same_sheets_give_the_same_bytes():
    first = workbook.workbook_bytes(sheets())
    time.sleep(1.1)  # openpyxl stamps the time of saving, to the second
    assert workbook.workbook_bytes(sheets()) == first


def test_the_training_workbook_of_the_default_round_marks_the_focus():
    config = load_config(paths.REPORT_CONFIG)
    sheets = suite_for("training-v1.0").workbook(paths.DATA, "training-v1.0", paths.PRICES, config.focus)
    book = pd.read_excel(io.BytesIO(workbook.workbook_bytes(sheets)), sheet_name=None)
    resnet = book["resnet"]
    marked = resnet[resnet["Focus"] == "focus"]
    assert set(marked["Submitter"]) == {"Graphcore"} and len(marked) == 2
    pod16 = resnet.loc[resnet["System ID"] == "ipu-pod16-TF1", "Time to train (minutes)"].iloc[0]
    assert pod16 == pytest.approx(37.12, abs=0.005)  # the press release's IPU-POD16 ResNet-50 time


def test_a_brand_shades_the_focus_s_rows_with_its_colour_lightened():
    assert workbook.tint("#0a7d2c") == "CEE5D5"
    assert workbook.tint(None) == workbook.tint("green") == workbook.FOCUS_FILL
    book = openpyxl.load_workbook(io.BytesIO(workbook.workbook_bytes(sheets(), workbook.WorkbookBrand(focus_fill=workbook.tint("#0a7d2c")))))
    fills = {cell.fill.fgColor.rgb for sheet in book.worksheets for row in sheet.iter_rows(min_row=2) for cell in row
             if cell.fill.fill_type == "solid"}
    assert "00CEE5D5" in fills and f"00{workbook.FOCUS_FILL}" not in fills


def _logo_png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (64, 32), (10, 125, 44)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_brand_sets_the_faces_and_puts_its_logo_beside_each_sheet_s_header():
    import zipfile

    logo = _logo_png()
    marks = workbook.WorkbookBrand(base_font="DejaVu Serif", headings_font="DejaVu Sans Mono", logo=logo)
    data = workbook.workbook_bytes(sheets(), brand=marks)
    book = openpyxl.load_workbook(io.BytesIO(data))
    bert = book["bert"]
    assert {c.font.name for c in bert[1]} == {"DejaVu Sans Mono"} and all(c.font.bold for c in bert[1])
    assert bert["B2"].font.name == "DejaVu Serif"              # the default font every data cell uses
    media = [n for n in zipfile.ZipFile(io.BytesIO(data)).namelist() if n.startswith("xl/media/")]
    assert len(media) == len(book.sheetnames)                    # the logo on every sheet
    assert all(zipfile.ZipFile(io.BytesIO(data)).read(n) == logo for n in media)
    drawing = zipfile.ZipFile(io.BytesIO(data)).read("xl/drawings/drawing1.xml").decode()
    assert "<from><col>5</col><colOff>0</colOff><row>0</row>" in drawing  # one empty column right of D, header row
    assert workbook.workbook_bytes(sheets(), brand=marks) == data


def test_without_a_brand_the_workbook_is_today_s():
    assert workbook.workbook_bytes(sheets(), brand=workbook.WorkbookBrand()) == workbook.workbook_bytes(sheets())
    book = openpyxl.load_workbook(io.BytesIO(workbook.workbook_bytes(sheets())))
    assert book["bert"]["B2"].font.name == "Calibri" and not book["bert"]._images


def test_a_face_s_name_is_written_as_xml_and_the_theme_s_font_no_longer_overrides_it():
    data = workbook.workbook_bytes(sheets(), brand=workbook.WorkbookBrand(base_font='Acme "Sans" & Co'))
    import zipfile
    from xml.dom import minidom

    styles = zipfile.ZipFile(io.BytesIO(data)).read("xl/styles.xml")
    first = minidom.parseString(styles).getElementsByTagName("fonts")[0].getElementsByTagName("font")[0]
    assert first.getElementsByTagName("name")[0].getAttribute("val") == 'Acme "Sans" & Co'
    assert not first.getElementsByTagName("scheme")
    assert openpyxl.load_workbook(io.BytesIO(data))["bert"]["B2"].font.name == 'Acme "Sans" & Co'
