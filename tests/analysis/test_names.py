"""Names as a sentence prints them: makers with spaces, chips by product name, systems by their printed
name, their platform when the official name is blank, never a folder spelling or an added system id."""

from __future__ import annotations

import pytest

from mlperf_report.analysis import names
from mlperf_report.core import accelerators

GENERATIONS = accelerators.load()


def test_a_maker_as_mlcommons_prints_it():
    assert names.maker("Quanta_Cloud_Technology") == "Quanta Cloud Technology"
    assert names.maker("Hewlett Packard Enterprise") == "Hewlett Packard Enterprise"


@pytest.mark.parametrize("model, chip", [
    ("NVIDIA B200-SXM-180GB", "NVIDIA B200"), ("NVIDIA Blackwell GPU (B200-SXM-180GB)", "NVIDIA B200"),
    ("NVIDIA GB300", "NVIDIA GB300"), ("GB300-288GB_aarch64", "NVIDIA GB300"), ("NVIDIA GB200", "NVIDIA GB200"),
    ("AMD Instinct MI300X-NPS1-SPX-192GB-750W", "AMD Instinct MI300X"), ("AMD Instinct MI355X", "AMD Instinct MI355X"),
    ("TPU-v5p", "Google TPU v5p"), ("NVIDIA GH200 Grace Hopper Superchip 144GB", "NVIDIA GH200"),
    ("INTEL(R) XEON(R) 6980P", "Intel Xeon 6"),
    ("TPU v5e", "Google TPU v5e"),                        # not in the catalogue: its text, its vendor in front
    ("UntetherAI speedAI240 Slim", "UntetherAI speedAI240 Slim"),
])
def test_a_chip_by_its_product_name(model, chip):
    assert names.chip(model, GENERATIONS) == chip


def test_gh200_is_not_an_h200():
    """"GH200" contains "h200": the Grace Hopper superchip read as the H200 generation."""
    assert GENERATIONS.of("NVIDIA GH200 Grace Hopper Superchip 144GB").name == "GH200"
    assert GENERATIONS.of("NVIDIA H200-SXM-141GB").name == "H200"


@pytest.mark.parametrize("row, printed", [
    ({"system": "NVIDIA DGX B200", "system_id": "dgxb200"}, "NVIDIA DGX B200"),
    # a system id this project added to tell same-named systems apart
    ({"system": "DGX B200 (theia_ngpu8_ngc25.09_nemo)", "system_id": "theia_ngpu8_ngc25.09_nemo"}, "DGX B200"),
    # the official name is blank: the platform its id starts with
    ({"system": " (72x GB300-288GB_aarch64, TensorRT)", "system_id": "GB300-NVL72_GB300-288GB_aarch64x72_TRT",
      "accelerator_model": "NVIDIA GB300-288GB", "submitter": "NVIDIA"}, "NVIDIA GB300 NVL72"),
    ({"system": "", "system_id": "1-node-2S-GNR-PyTorch", "submitter": "Intel"}, None),
    # spelled as a folder: described by maker and chips instead
    ({"system": "D54U_3U_H100_PCIe_80GBx4_TRT", "system_id": "D54U_3U_H100_PCIe_80GBx4_TRT"}, None),
    ({"system": "X660 G45_SXM4-80G-BPS_pytorch", "system_id": "X660 G45_SXM4-80G-BPS_pytorch"}, None),
    ({"system": "NVIDIA GH200-GraceHopper-Superchip (1x GH200-96GB_aarch64, TensorRT)", "system_id": "g"},
     "NVIDIA GH200-GraceHopper-Superchip (1x GH200-96GB_aarch64, TensorRT)"),     # NVIDIA's own configuration
    ({"system": "Quanta_Cloud_Technology XE9680", "system_id": "x", "submitter": "Quanta_Cloud_Technology"}, None),
])
def test_a_system_by_its_printed_name(row, printed):
    assert names.system(row) == printed


@pytest.mark.parametrize("maker, an", [("NVIDIA", True), ("HPE", True), ("AMD", True), ("Intel", True),
                                       ("Supermicro", False), ("Dell", False), ("Krai", False), ("ASUSTeK", True),
                                       ("SUPERMICRO", False), ("NTT", True)])
def test_the_english_article_before_a_maker(maker, an):
    assert names.uses_an(maker) is an
