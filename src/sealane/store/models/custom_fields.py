"""Custom fields: an account's field definitions, their options and the values set on objects."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, UTCDateTime, new_id

if TYPE_CHECKING:
    pass


class CustomFieldDefinition(Base):
    """An account's own field on its shipments, containers or tracking requests."""

    __tablename__ = "custom_field_definitions"
    __table_args__ = (
        UniqueConstraint("account_id", "entity_type", "api_slug", name="uq_custom_field_slug"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: ``Shipment``, ``Container`` or ``TrackingRequest``.
    entity_type: Mapped[str] = mapped_column(String(20))
    api_slug: Mapped[str] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text, nullable=True)
    data_type: Mapped[str] = mapped_column(String(20))
    reference_type: Mapped[str | None] = mapped_column(String(64), nullable=True)
    validation: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    default_format: Mapped[str | None] = mapped_column(String(64), nullable=True)
    default_value: Mapped[object | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CustomFieldOption(Base):
    """One allowed value of an ``enum`` or ``enum_multi`` custom field."""

    __tablename__ = "custom_field_options"
    __table_args__ = (
        UniqueConstraint("definition_id", "value", name="uq_custom_field_option_value"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    definition_id: Mapped[str] = mapped_column(
        ForeignKey("custom_field_definitions.id", ondelete="CASCADE"), index=True
    )
    label: Mapped[str] = mapped_column(String(200))
    value: Mapped[str] = mapped_column(String(200))
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CustomField(Base):
    """The value of a custom field on one shipment, container or tracking request."""

    __tablename__ = "custom_fields"
    __table_args__ = (
        UniqueConstraint("definition_id", "entity_id", name="uq_custom_field_per_entity"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    definition_id: Mapped[str] = mapped_column(
        ForeignKey("custom_field_definitions.id", ondelete="CASCADE"), index=True
    )
    #: ``shipment``, ``container`` or ``tracking_request``.
    entity_type: Mapped[str] = mapped_column(String(20))
    entity_id: Mapped[str] = mapped_column(String(36), index=True)
    value: Mapped[object | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
