"""The mic and camera check: choose an input device, watch a live level meter, say a
sentence and get a verdict (heard speech / too quiet / muted / clipping / no input device /
access refused); and the camera's preview with its name, or "No camera found".

Nothing is recorded or kept; the microphone and the camera close with the dialog.
``passed`` is emitted when speech was heard and a camera started, so the checklist can
tick its "video and mic" item; the level meter is live from the dialog's opening.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from companion.core.voice import check as verdicts
from companion.ui.voice.listener import AudioUnavailable, MicListener, input_devices

CHECK_SECONDS = 5.0
METER_FLOOR_DBFS = -60
FIRST_DATA_SECONDS = 10.0


class MicCheckDialog(QDialog):
    passed = Signal()
    finished_check = Signal(object)  # the CheckResult

    def __init__(self, parent=None, *, seconds: float = CHECK_SECONDS, camera: bool = True):
        super().__init__(parent)
        self.setWindowTitle("Check mic and camera")
        self.setAccessibleName("Check mic and camera")
        self.setMinimumWidth(460)
        self.seconds = seconds
        self.listener = None
        self.result: verdicts.CheckResult | None = None
        self._camera = None
        self._session = None
        self._meter_listener = None  # the level meter, live from the dialog's opening
        self.camera_ok = False  # a camera was found and started
        self._poll = QTimer(self, interval=100)
        self._poll.timeout.connect(self._progress)

        layout = QVBoxLayout(self)
        mic = QGroupBox("Microphone")
        ml = QVBoxLayout(mic)
        row = QHBoxLayout()
        row.addWidget(QLabel("Input:"))
        self.devices = QComboBox()
        self.devices.setAccessibleName("Input device")
        row.addWidget(self.devices, 1)
        ml.addLayout(row)
        self.meter = QProgressBar()
        self.meter.setAccessibleName("Input level")
        self.meter.setRange(0, -METER_FLOOR_DBFS)
        self.meter.setFormat("no sound")
        ml.addWidget(self.meter)
        self.check_button = QPushButton("Say a sentence")
        self.check_button.setToolTip(
            f"Listen for {seconds:g} s and say whether speech was heard; nothing is recorded"
        )
        self.check_button.clicked.connect(self.start_check)
        ml.addWidget(self.check_button)
        self.verdict = QLabel("")
        self.verdict.setAccessibleName("Microphone verdict")
        self.verdict.setWordWrap(True)
        ml.addWidget(self.verdict)
        layout.addWidget(mic)

        cam = QGroupBox("Camera")
        self._camera_layout = QVBoxLayout(cam)
        self.camera_label = QLabel("")
        self.camera_label.setAccessibleName("Camera")
        self.camera_label.setWordWrap(True)
        self._camera_layout.addWidget(self.camera_label)
        layout.addWidget(cam)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._fill_devices()
        self.devices.currentIndexChanged.connect(self._restart_meter)
        if camera:
            self._start_camera()
        else:
            self.camera_label.setText("Camera check off.")
        self._start_meter()

    # -- microphone --------------------------------------------------------------------

    def _fill_devices(self) -> None:
        try:
            devices = input_devices()
        except AudioUnavailable:
            devices = []
        self.devices.clear()
        for ident, description, default in devices:
            self.devices.addItem(description + (" (default)" if default else ""), ident)
            if default:
                self.devices.setCurrentIndex(self.devices.count() - 1)
        if not devices:
            self.devices.addItem("No input device found", "")
            self.devices.setEnabled(False)

    def _start_meter(self) -> None:
        """Show the input level before any check, so a silent device shows at once."""
        if self.listener is not None or self._meter_listener is not None:
            return
        device = self.devices.currentData()
        if not device:
            return

        meter = MicListener(self, device=device)
        meter.levels.connect(self._level)
        if meter.start():
            self._meter_listener = meter
        else:
            meter.deleteLater()

    def _stop_meter(self) -> None:
        meter, self._meter_listener = self._meter_listener, None
        if meter is not None:
            meter.stop()
            meter.deleteLater()

    def _restart_meter(self) -> None:
        if self.listener is None:  # not while a check listens
            self._stop_meter()
            self._start_meter()

    def start_check(self) -> None:
        self.stop_mic()
        self._stop_meter()  # one stream at a time: the check's own feeds the meter
        self.result = None
        self.verdict.setText("Listening: say a sentence...")
        device = self.devices.currentData() or None
        listener = MicListener(self, device=device)
        self._errors: list[str] = []
        listener.error.connect(self._errors.append)
        listener.levels.connect(self._level)
        self.listener = listener
        if not listener.start():
            kind = verdicts.REFUSED if listener.failure == "refused" else verdicts.NO_DEVICE
            message = self._errors[-1] if self._errors else "the microphone did not open."
            self._finish(verdicts.CheckResult(kind, message, device=listener.device_name or None))
            return
        self.check_button.setEnabled(False)
        self._started = 0.0
        self._poll.start()

    def _level(self, peak: float, _rms: float) -> None:
        value = max(0, int(round(peak - METER_FLOOR_DBFS)))
        self.meter.setValue(min(self.meter.maximum(), value))
        self.meter.setFormat(f"peak {peak:.0f} dBFS")

    def _progress(self) -> None:
        listener = self.listener
        if listener is None:
            return
        self._started += self._poll.interval() / 1000
        if self._errors:
            self._finish(
                verdicts.CheckResult(
                    verdicts.REFUSED, self._errors[-1], device=listener.device_name
                )
            )
        elif listener.seconds >= self.seconds:
            self._finish(
                verdicts.judge(
                    listener.device_name,
                    listener.meter.levels(),
                    listener.vad.speech_seconds,
                    listener.seconds,
                )
            )
        elif listener.seconds <= 0 and self._started > FIRST_DATA_SECONDS:
            self._finish(
                verdicts.refused(listener.device_name, "no sound arrived from the device.")
            )

    def _finish(self, result: verdicts.CheckResult) -> None:
        self._poll.stop()
        self.stop_mic()
        self.result = result
        self.check_button.setEnabled(True)
        self.check_button.setText("Try again")
        figures = ""
        if result.peak_dbfs is not None:
            figures = (
                f" (peak {result.peak_dbfs:.0f} dBFS, RMS {result.rms_dbfs:.0f} dBFS,"
                f" {result.speech_seconds:.1f} s of speech)"
            )
        if result.passed:
            text = f"\u2713 Heard speech{figures}"
            if not self.camera_ok:  # "video and mic" is not checked without the video
                text += "\nThe camera was not checked: " + self.camera_label.text()
            self.verdict.setText(text)
        else:
            self.verdict.setText(f"\u2717 {result.verdict.capitalize()}: {result.message}{figures}")
        self.adjustSize()  # the verdict may wrap onto more lines
        self.finished_check.emit(result)
        if result.passed and self.camera_ok:
            self.passed.emit()
        if self.isVisible():
            self._start_meter()

    def stop_mic(self) -> None:
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.stop()
            listener.deleteLater()

    # -- camera ------------------------------------------------------------------------

    def _start_camera(self) -> None:
        try:
            from PySide6.QtMultimedia import QCamera, QMediaCaptureSession, QMediaDevices
            from PySide6.QtMultimediaWidgets import QVideoWidget
        except ImportError:
            self.camera_label.setText("No camera support (PySide6-Addons is not installed).")
            return
        cameras = QMediaDevices.videoInputs()
        if not cameras:
            self.camera_label.setText("No camera found.")
            return
        device = QMediaDevices.defaultVideoInput()
        if device.isNull():
            device = cameras[0]
        self.camera_label.setText(f"Camera: {device.description()}")
        self._camera = QCamera(device, self)

        def failed(_err, text: str) -> None:
            self.camera_ok = False
            self.camera_label.setText(
                f"Camera {device.description()}: {text or 'it could not start.'}"
            )

        self._camera.errorOccurred.connect(failed)
        self.camera_ok = True
        self._session = QMediaCaptureSession(self)
        self._session.setCamera(self._camera)
        preview = QVideoWidget()
        preview.setAccessibleName("Camera preview")
        preview.setMinimumSize(320, 180)
        self._session.setVideoOutput(preview)
        self._camera_layout.addWidget(preview, 0, Qt.AlignmentFlag.AlignHCenter)
        self._camera.start()

    def stop_camera(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            camera.stop()

    def done(self, code: int) -> None:  # closes by any route: Close, Esc, the window
        self._poll.stop()
        self.stop_mic()
        self._stop_meter()
        self.stop_camera()
        super().done(code)

    def closeEvent(self, event) -> None:
        self.stop_mic()
        self._stop_meter()
        self.stop_camera()
        super().closeEvent(event)


def show_check(parent=None, **options) -> MicCheckDialog:
    """Open the check without a nested event loop; the caller connects ``passed``."""
    dialog = MicCheckDialog(parent, **options)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    dialog.show()
    return dialog
